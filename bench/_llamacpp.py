"""llama.cpp's batched decoding, for `generation.py`'s rows of what a CPU user would pick instead.

Through `llama-cpp-python`'s low-level API (an optional bench dependency, `INSTALL`): one
context holds every row as a sequence of its own; the prompts are prefilled in one batch, then
each decode step feeds one token per unfinished row in one `llama_decode` call (llama.cpp's own
batched decoding, as its `batched` example does). Sampling is done here from each row's logits
with the same temperature and top-p as the engine's rows, on the same prompt token ids (the HF
tokenizer's chat template), and a row stops at EOS or the token budget. The reported log-probs
are the sampled tokens' log-softmax of logits / temperature, as the engine reports them; they
are llama.cpp's kernels' (and, for the bundled GGUF, its 4-bit weights'), not the learner's.

`f16_gguf` writes an F16 copy of a GGUF with the `gguf` package alone: each quantised tensor
dequantised (the same values the learner's float32 weights are dequantised to) and stored in
float16, the float32 ones and every metadata field kept.
"""

from __future__ import annotations

import ctypes
import importlib.util
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

INSTALL = 'CMAKE_ARGS="-DGGML_NATIVE=ON" pip install llama-cpp-python'
F16 = 1  # llama_ftype LLAMA_FTYPE_MOSTLY_F16
CANDIDATES = 256  # tokens sorted for top-p before falling back to the whole vocabulary


def missing() -> str | None:
    """Why the llama.cpp rows cannot run (llama_cpp not importable), or None."""
    if importlib.util.find_spec("llama_cpp") is None:
        return f"llama.cpp rows skipped: llama_cpp is not installed (`{INSTALL}`, ~10 min build)"
    return None


def f16_gguf(source: Path, out: Path) -> Path:
    """An F16 copy of the GGUF `source` at `out` (written once; kept when it exists)."""
    import gguf

    if out.exists():
        return out
    reader = gguf.GGUFReader(source)
    arch = reader.fields[gguf.Keys.General.ARCHITECTURE].contents()
    tmp = out.with_suffix(".part")
    writer = gguf.GGUFWriter(tmp, arch)
    for item in reader.fields.values():
        if item.name == gguf.Keys.General.ARCHITECTURE or item.name.startswith("GGUF."):
            continue  # the writer writes these itself
        kind = item.types[0]
        sub = item.types[-1] if kind == gguf.GGUFValueType.ARRAY else None
        value = F16 if item.name == gguf.Keys.General.FILE_TYPE else item.contents()
        writer.add_key_value(item.name, value, kind, sub_type=sub)
    for tensor in reader.tensors:
        if tensor.tensor_type in (gguf.GGMLQuantizationType.F32, gguf.GGMLQuantizationType.F16):
            data = np.array(tensor.data)
        else:
            data = gguf.quants.dequantize(tensor.data, tensor.tensor_type).astype(np.float16)
        writer.add_tensor(tensor.name, data)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    tmp.rename(out)
    return out


@dataclass
class Row:
    """One row's completion, shaped as the engine's (`Completion`) for the mismatch rescoring."""

    prompt_ids: list[int]
    response_ids: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    done: bool = False

    @property
    def response_len(self) -> int:
        return len(self.response_ids)


class BatchedLlama:
    """A llama.cpp model and one context of `rows` sequences of `context` positions each."""

    def __init__(self, path: Path, rows: int, context: int, threads: int) -> None:
        import llama_cpp as lc

        self.lc = lc
        lc.llama_backend_init()
        self._quiet = lc.llama_log_callback(lambda level, text, data: None)
        lc.llama_log_set(self._quiet, ctypes.c_void_p(0))
        self.model = lc.llama_model_load_from_file(
            str(path).encode(), lc.llama_model_default_params()
        )
        if not self.model:
            raise RuntimeError(f"llama.cpp could not load {path}")
        self.vocab = lc.llama_model_get_vocab(self.model)
        self.n_vocab = lc.llama_vocab_n_tokens(self.vocab)
        params = lc.llama_context_default_params()
        params.n_ctx = rows * context
        params.n_batch = params.n_ubatch = rows * context
        params.n_seq_max = rows
        params.n_threads = params.n_threads_batch = threads
        self.ctx = lc.llama_init_from_model(self.model, params)
        self.batch = lc.llama_batch_init(rows * context, 0, 1)
        self.rows = rows

    def close(self) -> None:
        self.lc.llama_batch_free(self.batch)
        self.lc.llama_free(self.ctx)
        self.lc.llama_model_free(self.model)

    def _decode(self, entries: list[tuple[int, int, int, bool]]) -> None:
        """One llama_decode of (token, position, sequence, wants logits) entries."""
        b = self.batch
        b.n_tokens = len(entries)
        for j, (token, pos, seq, logits) in enumerate(entries):
            b.token[j], b.pos[j], b.n_seq_id[j], b.logits[j] = token, pos, 1, logits
            b.seq_id[j][0] = seq
        if self.lc.llama_decode(self.ctx, b) != 0:
            raise RuntimeError("llama_decode failed (context too small?)")

    def _logits(self, j: int) -> np.ndarray:
        ptr = self.lc.llama_get_logits_ith(self.ctx, j)
        return np.ctypeslib.as_array(ptr, shape=(self.n_vocab,)).astype(np.float64)

    def generate(
        self, prompts: list[list[int]], max_new: int, temperature: float, top_p: float, seed: int
    ) -> tuple[list[Row], float, float]:
        """Sample up to `max_new` tokens per prompt; (rows, wall s, process CPU s)."""
        assert len(prompts) <= self.rows
        rng = np.random.default_rng(seed)
        self.lc.llama_memory_clear(self.lc.llama_get_memory(self.ctx), True)
        rows = [Row(list(p)) for p in prompts]
        start, cpu = time.perf_counter(), time.process_time()
        entries = [
            (t, pos, seq, pos == len(p) - 1)
            for seq, p in enumerate(prompts)
            for pos, t in enumerate(p)
        ]
        self._decode(entries)
        slots = [j for j, e in enumerate(entries) if e[3]]  # batch index of each row's logits
        while True:
            step = []
            for seq, (row, j) in enumerate(zip(rows, slots, strict=True)):
                if row.done:
                    continue
                token, logp = sample(self._logits(j), temperature, top_p, rng)
                row.response_ids.append(token)
                row.logprobs.append(logp)
                row.done = (
                    self.lc.llama_vocab_is_eog(self.vocab, token)
                    or len(row.response_ids) >= max_new
                )
                if not row.done:
                    step.append((seq, token, len(row.prompt_ids) + len(row.response_ids) - 1))
            if not step:
                break
            self._decode([(token, pos, seq, True) for seq, token, pos in step])
            for k, (seq, _, _) in enumerate(step):
                slots[seq] = k
        return rows, time.perf_counter() - start, time.process_time() - cpu


def sample(
    logits: np.ndarray, temperature: float, top_p: float, rng: np.random.Generator
) -> tuple[int, float]:
    """A token from softmax(logits / temperature) cut to its top-p nucleus, and its log-prob
    under the uncut distribution (what the engine reports)."""
    scaled = logits / temperature
    logp = scaled - scaled.max()
    logp -= np.log(np.exp(logp).sum())
    # the nucleus almost always lies in the top CANDIDATES: sort those alone (a full sort of the
    # vocabulary per token would cost more than llama.cpp's decode step); else sort everything
    order = np.argpartition(-logp, CANDIDATES)[:CANDIDATES] if logp.size > CANDIDATES else None
    if order is None or np.exp(logp[order]).sum() < top_p:
        order = np.arange(logp.size)
    order = order[np.argsort(-logp[order])]
    probs = np.exp(logp[order])
    keep = int(np.searchsorted(np.cumsum(probs), top_p)) + 1  # the smallest set reaching top_p
    kept = probs[:keep] / probs[:keep].sum()
    token = int(order[rng.choice(keep, p=kept)])
    return token, float(logp[token])


def gguf_rows(gguf_path: Path, cache: Path) -> dict[str, Path]:
    """The llama.cpp rows' models: the bundled GGUF as it is and its F16 copy."""
    return {
        f"llama.cpp {gguf_path.stem.rsplit('.', 1)[-1]}": gguf_path,
        "llama.cpp F16": f16_gguf(gguf_path, cache / f"{gguf_path.stem}.F16.gguf"),
    }
