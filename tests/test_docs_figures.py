"""Figures the docs state that a test can check cheaply stay true (one figure per fact)."""

from __future__ import annotations

import re
from pathlib import Path

from mars2.agents import load_model

ROOT = Path(__file__).resolve().parents[1]


def test_the_tiny_random_size_in_docs_agents_md_is_the_model_s() -> None:
    text = (ROOT / "docs" / "agents.md").read_text()
    stated = re.search(r"`tiny-random` \| a seeded Llama of ([\d,]+) parameters", text)
    assert stated, "docs/agents.md no longer states the tiny-random size"
    model, _ = load_model("tiny-random")
    assert int(stated.group(1).replace(",", "")) == sum(p.numel() for p in model.parameters())
    rounded = f"{sum(p.numel() for p in model.parameters()) / 1e6:.1f}M-parameter"
    for config in ("smoke.yaml", "tiny.yaml"):
        assert rounded in (ROOT / "configs" / config).read_text(), config
