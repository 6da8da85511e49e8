"""Atomic checkpoints: each agent's weights as safetensors, apart from the resume state.

Layout of one checkpoint, `RUN/checkpoints/step_NNNNNN/` (the run's paths: mars2.rundir):

    trainer.pt              step, data cursor, RNG states, each learner's scheduler and RNG,
                            which agents share weights (small)
    optimizer.pt            every learner's optimizer state: only in the newest checkpoint
    agents/NAME/            one folder per set of trained weights (agents that `share_with`
                            another have none: theirs are the other's)
        model.safetensors   full fine-tuning: HF parameter names, next to the base model's
                            config, generation config and tokenizer files, so the folder is an
                            HF model folder (`from_pretrained`, `mars2 search --agents`)
        adapter_model.safetensors + adapter_config.json
                            LoRA: a peft adapter folder (`PeftModel.from_pretrained(base, it)`)

A checkpoint is written into a hidden temporary folder, fsynced and renamed into place; then
`checkpoints/latest` (a one-line file naming it) is replaced atomically, and only then are
checkpoints beyond `keep` removed (each renamed away first, so a crash never leaves half of
one) and the optimizer state of all but the newest deleted: `--resume` continues from the
newest, the older ones are there for evaluation and export. Optimizer state is 2x the weights
(AdamW), so keeping it once bounds a run directory at `keep` x weights + 2 x weights.
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import torch

from mars2.errors import UserError
from mars2.rundir import STEP_GLOB, RunDir, step_name, step_of

FORMAT = 2
TRAINER_FILE = "trainer.pt"
OPTIMIZER_FILE = "optimizer.pt"
WEIGHTS_FILE = "model.safetensors"
ADAPTER_FILE = "adapter_model.safetensors"
# Files of a base model folder that are not weights: copied next to full fine-tuned weights.
_WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth", ".gguf", ".index.json")


def _fsync_dir(path: Path) -> None:
    dir_fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _atomic_write(path: Path, write: Any) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as handle:
        write(handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _fsync_tree(root: Path) -> None:
    for folder, _, files in os.walk(root):
        for name in files:
            fd = os.open(Path(folder) / name, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        _fsync_dir(Path(folder))


def rng_state() -> dict[str, Any]:
    return {
        "python": random.getstate(),
        "numpy": np.random.get_state(),
        "torch": torch.get_rng_state(),
    }


def set_rng_state(state: dict[str, Any]) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])


# ---------------------------------------------------------------- weights folders


def _unique(tensors: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Drop tensors that share storage with an earlier one (tied embeddings: safetensors stores
    each storage once, as HF's save_pretrained does), made contiguous for writing."""
    seen: set[tuple[int, tuple[int, ...]]] = set()
    out = {}
    for name, tensor in tensors.items():
        key = (tensor.untyped_storage().data_ptr(), tuple(tensor.shape))
        if tensor.numel() and key in seen:
            continue
        seen.add(key)
        out[name] = tensor.detach().to("cpu").contiguous()
    return out


def write_weights(folder: Path, learner_state: Mapping[str, Any], base: Path | None) -> None:
    """Write one learner's weights into `folder`: a peft adapter folder (LoRA) or safetensors
    plus the non-weight files of the `base` model folder (config, tokenizer)."""
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    lora = learner_state.get("lora")
    if lora is not None:
        save_file(_unique(learner_state["weights"]), folder / ADAPTER_FILE)
        lora.save_pretrained(str(folder))
        return
    save_file(_unique(learner_state["weights"]), folder / WEIGHTS_FILE, metadata={"format": "pt"})
    if base is not None:
        for item in base.iterdir():
            if item.is_file() and not item.name.endswith(_WEIGHT_SUFFIXES):
                shutil.copy2(item, folder / item.name)


def read_weights(folder: Path) -> tuple[dict[str, torch.Tensor], bool]:
    """The tensors of a weights folder and whether it is a LoRA adapter."""
    from safetensors.torch import load_file

    if (folder / ADAPTER_FILE).is_file():
        return load_file(folder / ADAPTER_FILE), True
    if (folder / WEIGHTS_FILE).is_file():
        return load_file(folder / WEIGHTS_FILE), False
    raise UserError(f"{folder}: no {WEIGHTS_FILE} or {ADAPTER_FILE} there; damaged checkpoint?")


# ---------------------------------------------------------------- save


def save(run_dir: Path, step: int, state: dict[str, Any], keep: int = 2) -> Path:
    """Write checkpoint `step` of `state` (`Trainer.state_dict()`) atomically, point `latest` at
    it, then keep only the newest `keep` checkpoints and the newest optimizer state.

    `state["learners"]` maps the name of each set of trained weights to its learner's state
    (`Learner.state_dict()`) plus `base`, the base model's folder (or None).
    """
    folder = RunDir(run_dir).checkpoints_dir
    folder.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(folder)
    name = step_name(step)
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}-", suffix=".tmp", dir=folder))
    try:
        learners: dict[str, Any] = {}
        optimizers: dict[str, Any] = {}
        for agent, learner in state["learners"].items():
            base = learner.get("base")
            write_weights(tmp / "agents" / agent, learner, Path(base) if base else None)
            optimizers[agent] = learner["optimizer"]
            learners[agent] = {
                "scheduler": learner["scheduler"],
                "rng": learner["rng"],
                "lora": learner.get("lora") is not None,
                "base": base,
            }
        meta = {k: v for k, v in state.items() if k != "learners"}
        torch.save({"format": FORMAT, **meta, "learners": learners}, tmp / TRAINER_FILE)
        torch.save(optimizers, tmp / OPTIMIZER_FILE)
        _fsync_tree(tmp)
        target = folder / name
        if target.exists():  # a step redone after a crash between its rename and `latest`
            _remove(target)
        tmp.rename(target)
        _fsync_dir(folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    _atomic_write(RunDir(run_dir).latest_pointer, lambda handle: handle.write(name.encode()))
    prune(run_dir, keep)
    return target


def checkpoints(run_dir: Path) -> list[Path]:
    """The complete checkpoints of a run, oldest first."""
    return [p for p in RunDir(run_dir).checkpoint_dirs() if (p / TRAINER_FILE).is_file()]


def prune(run_dir: Path, keep: int) -> None:
    """Remove all but the newest `keep` checkpoints, and the optimizer state of all but the
    newest. The one `latest` names is never removed."""
    current = latest(run_dir)
    found = checkpoints(run_dir)
    for old in found[:-keep]:
        if old != current:
            _remove(old)
    for old in found[:-1]:
        if old != current:
            (old / OPTIMIZER_FILE).unlink(missing_ok=True)


def _remove(path: Path) -> None:
    """Rename away (atomic: the checkpoint is gone at once), then delete."""
    trash = path.with_name(f".{path.name}.trash")
    shutil.rmtree(trash, ignore_errors=True)
    path.rename(trash)
    shutil.rmtree(trash, ignore_errors=True)


def _remove_leftovers(folder: Path) -> None:
    """Temporary and half-deleted folders of a run killed while saving or pruning."""
    for item in folder.glob(f".{STEP_GLOB}"):
        if item.is_dir():
            shutil.rmtree(item, ignore_errors=True)


# ---------------------------------------------------------------- load


def _legacy_error(path: Path) -> UserError:
    return UserError(
        f"{path} is a checkpoint of an older mars2 (one .pt pickle per step); this version stores "
        "weights as safetensors folders and cannot read it. Evaluate or resume it with the mars2 "
        "version that wrote it, or train again"
    )


def latest(run_dir: Path) -> Path | None:
    """The checkpoint `checkpoints/latest` names, or None when there is none yet."""
    pointer = RunDir(run_dir).latest_pointer
    if not pointer.is_file():
        return None
    path = pointer.parent / pointer.read_text().strip()
    if path.suffix == ".pt":
        raise _legacy_error(path)
    return path if (path / TRAINER_FILE).is_file() else None


def check(path: Path) -> Path:
    """`path` itself, when it is a checkpoint this version reads; a clear error otherwise."""
    if path.suffix == ".pt" or (path.is_file() and step_of(path.stem) is not None):
        raise _legacy_error(path)
    if not (path / TRAINER_FILE).is_file():
        raise UserError(f"{path}: not a checkpoint folder (no {TRAINER_FILE})")
    return path


def load_meta(path: Path) -> dict[str, Any]:
    """`trainer.pt` of checkpoint `path`: step, cursor, RNG, learners (without weights)."""
    check(path)
    try:
        meta: dict[str, Any] = torch.load(
            path / TRAINER_FILE, map_location="cpu", weights_only=False
        )
    except (OSError, RuntimeError, EOFError) as err:
        raise UserError(f"cannot read checkpoint {path}: {err}") from None
    return meta


def weights_folder(path: Path, name: str) -> Path:
    """The weights folder of the set of weights called `name` in checkpoint `path`."""
    return path / "agents" / name


def load(path: Path) -> dict[str, Any]:
    """The full state of checkpoint `path` for `Trainer.load_state_dict` (resume): weights,
    optimizer and the rest, shaped as `Trainer.state_dict()` made it."""
    meta = load_meta(path)
    if not (path / OPTIMIZER_FILE).is_file():
        raise UserError(
            f"{path} has no {OPTIMIZER_FILE}: only the newest checkpoint of a run keeps the "
            "optimizer state that resuming needs"
        )
    try:
        optimizers = torch.load(path / OPTIMIZER_FILE, map_location="cpu", weights_only=False)
    except (OSError, RuntimeError, EOFError) as err:
        raise UserError(f"cannot read checkpoint {path}: {err}") from None
    learners = {}
    for name, learner in meta["learners"].items():
        weights, _ = read_weights(weights_folder(path, name))
        learners[name] = {**learner, "weights": weights, "optimizer": optimizers[name]}
    return {**meta, "learners": learners}
