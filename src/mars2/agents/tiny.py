"""`tiny-random`: a small seeded Llama with a byte-level BPE tokenizer trained in-process.

For tests and CI: it builds in well under a second, is the same on every machine for the same
corpus, and speaks the same ChatML template as SmolLM2. Its outputs are noise, by design.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

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
        for line in basic.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                texts.append(str(record.get("statement", "")))
                texts.append(str(record.get("starter_code") or ""))
                texts.append(str(record.get("solution") or ""))
    return texts


def fingerprint(texts: list[str]) -> str:
    """A short hash of everything that determines the tiny model (cache key)."""
    h = hashlib.sha256(f"v{TINY_VERSION}:{VOCAB_SIZE}:{SEED}:{MODEL_SHAPE}".encode())
    for text in texts:
        h.update(text.encode("utf-8"))
    return h.hexdigest()[:12]


def build_tokenizer(texts: list[str]) -> Any:
    """A byte-level BPE tokenizer (HF fast tokenizer) with ChatML special tokens."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        special_tokens=list(SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    core.train_from_iterator(texts, trainer)
    return PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]
        tokenizer_object=core,
        bos_token="<|im_start|>",
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        unk_token="<|endoftext|>",
        chat_template=CHAT_TEMPLATE,
    )


def build_model(tokenizer: Any) -> Any:
    """A seeded LlamaForCausalLM (~5M parameters) sized to the tokenizer."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(
        vocab_size=len(tokenizer),
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        **MODEL_SHAPE,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(SEED)
        model = LlamaForCausalLM(config)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.eval()  # type: ignore[no-untyped-call]
    return model


def save_tiny(out_dir: Path) -> None:
    """Build the tiny model and tokenizer and save them as a plain HF folder at `out_dir`."""
    tokenizer = build_tokenizer(corpus())
    model = build_model(tokenizer)
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
