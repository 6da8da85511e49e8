"""Evaluations kept on disk under ~/.cache/mars2/evals/<key>/ (eval.json and trees.jsonl), so an
evaluation of the same weights, protocol, problems and seed (the base model's, typically) is
paid for once. The key is evaluation.protocol.cache_key over those and `code_fingerprint()`, a
hash of mars2's own source, so a changed prompt or search never returns a stale result;
`eval.cache: false` skips the cache."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from mars2 import jsonl, paths
from mars2.errors import UserError


@functools.cache
def code_fingerprint() -> str:
    """sha256 of every .py file of the mars2 package (paths and contents), computed once."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for file in sorted(package.rglob("*.py")):
        digest.update(str(file.relative_to(package)).encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def root() -> Path:
    return paths.cache_dir() / "evals"


def load(key: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """(eval.json object, node record objects) of a cached evaluation, or None: a missing or
    damaged entry is a miss (stored atomically, an entry is never cut by a kill)."""
    folder = root() / key
    try:
        record = json.loads((folder / "eval.json").read_text(encoding="utf-8"))
        trees = [node for _, node in jsonl.read(folder / "trees.jsonl", warn=False)]
    except (OSError, ValueError, UserError):
        return None
    return (record, trees) if isinstance(record, dict) else None


def store(key: str, record: dict[str, Any], trees: list[dict[str, Any]]) -> None:
    """Write the evaluation atomically (a folder renamed into place); an existing one stays."""
    base = root()
    base.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=base, prefix=".tmp-"))
    try:
        (tmp / "eval.json").write_text(json.dumps(record) + "\n", encoding="utf-8")
        (tmp / "trees.jsonl").write_text(jsonl.text(trees), encoding="utf-8")
        os.replace(tmp, base / key)
    except OSError:  # another process stored it first, or the cache is not writable
        shutil.rmtree(tmp, ignore_errors=True)
