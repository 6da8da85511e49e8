"""`tiny-random` and `tiny-random-base`: small seeded models with BPE tokenizers trained in-process.

For tests and CI: each builds in about a second, is the same on every machine for the same
corpus, and its outputs are noise, by design.
- `tiny-random`: a Llama speaking the same ChatML template as SmolLM2 (vocabulary 4096);
- `tiny-random-base`: a Gemma-3 text model with no chat template, like the bundled Gemma-3-270M
  base model, and another vocabulary (1024 tokens): with `tiny-random` it makes a heterogeneous
  team (two tokenizers, two vocabularies, chat and plain prompts) that runs in seconds.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from mars2 import jsonl

TINY_VERSION = 1
SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
MODEL_SHAPE: dict[str, Any] = {
    "hidden_size": 256,
    "intermediate_size": 768,
    "num_hidden_layers": 4,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "max_position_embeddings": 4096,
    "rope_theta": 10000.0,
    "tie_word_embeddings": False,
}
VOCAB_SIZE = 4096
SEED = 1234

# The base (no chat template) variant: Gemma-3's architecture and special tokens, shrunk.
BASE_SPECIAL_TOKENS = ("<pad>", "<eos>", "<bos>")
BASE_MODEL_SHAPE: dict[str, Any] = {
    "hidden_size": 128,
    "intermediate_size": 384,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 1,
    "head_dim": 32,
    "max_position_embeddings": 4096,
    "sliding_window": 512,
    "layer_types": ["sliding_attention", "full_attention"],
}
BASE_VOCAB_SIZE = 1024  # the corpus saturates near 2.9k, so 4096 vs 1024 really differ
VARIANTS = ("tiny-random", "tiny-random-base")

# A little English and Python so the BPE learns merges useful for code prompts even when the
# bundled problem set is not there.
_EMBEDDED_CORPUS = """
You are an expert Python programmer. Solve the problem below. Answer with one ```python block.
Write a function that returns the sum of the even numbers in a list of integers.
Given a string s, return the number of vowels in s. Read the input from standard input and
print the answer. The previous attempt failed these tests: input, expected output, actual output.
Traceback (most recent call last): File "main.py", line 3, in <module> ValueError: invalid literal
def sum_evens(xs):
    return sum(x for x in xs if x % 2 == 0)

def count_vowels(s: str) -> int:
    total = 0
    for ch in s.lower():
        if ch in "aeiou":
            total += 1
    return total

class Solution:
    def twoSum(self, nums: list[int], target: int) -> list[int]:
        seen = {}
        for i, n in enumerate(nums):
            if target - n in seen:
                return [seen[target - n], i]
            seen[n] = i
        return []

import sys
def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    values = list(map(int, data[1:n + 1]))
    print(max(values) - min(values))

if __name__ == "__main__":
    main()
"""


def corpus() -> list[str]:
    """The training text: the embedded snippet plus the bundled problems when they exist."""
    texts = [_EMBEDDED_CORPUS]
    basic = Path(__file__).resolve().parents[1] / "problems" / "data" / "basic.jsonl"
    if basic.is_file():
        for _, record in jsonl.read(basic):
            texts.append(str(record.get("statement", "")))
            texts.append(str(record.get("starter_code") or ""))
            texts.append(str(record.get("solution") or ""))
    return texts


def fingerprint(texts: list[str], variant: str = "tiny-random") -> str:
    """A short hash of everything that determines the tiny model `variant` (cache key)."""
    if variant == "tiny-random":
        key = f"v{TINY_VERSION}:{VOCAB_SIZE}:{SEED}:{MODEL_SHAPE}"
    else:
        key = f"{variant}:v{TINY_VERSION}:{BASE_VOCAB_SIZE}:{SEED}:{BASE_MODEL_SHAPE}"
    h = hashlib.sha256(key.encode())
    for text in texts:
        h.update(text.encode("utf-8"))
    return h.hexdigest()[:12]


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"unknown tiny variant {variant!r}; known: {', '.join(VARIANTS)}")


def build_tokenizer(texts: list[str], variant: str = "tiny-random") -> Any:
    """A byte-level BPE tokenizer (HF fast tokenizer): ChatML special tokens and template for
    `tiny-random`; Gemma's `<bos>`/`<eos>`/`<pad>`, a prepended `<bos>` and no chat template for
    `tiny-random-base`."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    _check_variant(variant)
    base = variant == "tiny-random-base"
    special = BASE_SPECIAL_TOKENS if base else SPECIAL_TOKENS
    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=BASE_VOCAB_SIZE if base else VOCAB_SIZE,
        special_tokens=list(special),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    core.train_from_iterator(texts, trainer)
    if not base:
        return PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]
            tokenizer_object=core,
            bos_token="<|im_start|>",
            eos_token="<|im_end|>",
            pad_token="<|endoftext|>",
            unk_token="<|endoftext|>",
            chat_template=CHAT_TEMPLATE,
        )
    bos_id = core.token_to_id("<bos>")
    core.post_processor = processors.TemplateProcessing(  # type: ignore[assignment]
        single="<bos> $A", pair="<bos> $A $B", special_tokens=[("<bos>", bos_id)]
    )
    return PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]
        tokenizer_object=core, bos_token="<bos>", eos_token="<eos>", pad_token="<pad>"
    )


def build_model(tokenizer: Any, variant: str = "tiny-random") -> Any:
    """A seeded model sized to the tokenizer: LlamaForCausalLM (~5M parameters) for
    `tiny-random`, Gemma3ForCausalLM (~0.5M) for `tiny-random-base`."""
    import torch
    from transformers import (
        Gemma3ForCausalLM,
        Gemma3TextConfig,
        LlamaConfig,
        LlamaForCausalLM,
    )

    _check_variant(variant)
    ids = {
        "vocab_size": len(tokenizer),
        "bos_token_id": tokenizer.bos_token_id,
        "eos_token_id": tokenizer.eos_token_id,
        "pad_token_id": tokenizer.pad_token_id,
    }
    model: Any
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(SEED)
        if variant == "tiny-random-base":
            model = Gemma3ForCausalLM(Gemma3TextConfig(**ids, **BASE_MODEL_SHAPE))
        else:
            model = LlamaForCausalLM(LlamaConfig(**ids, **MODEL_SHAPE))
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.eval()  # type: ignore[no-untyped-call]
    return model


def save_tiny(out_dir: Path, variant: str = "tiny-random") -> None:
    """Build the tiny model `variant` and its tokenizer as a plain HF folder at `out_dir`."""
    tokenizer = build_tokenizer(corpus(), variant)
    model = build_model(tokenizer, variant)
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
