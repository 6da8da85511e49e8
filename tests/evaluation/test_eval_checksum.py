"""Weight checksums and the evaluation cache."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from mars2 import paths
from mars2.config import AgentConfig
from mars2.evaluation import cache
from mars2.evaluation.checksum import policy_checksum, weights_checksum


def test_checksum_is_stable_and_sees_a_small_update() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(300, 200), torch.nn.Linear(200, 3))
    first = weights_checksum(model)
    assert first.startswith("sha256:") and weights_checksum(model) == first
    copy = torch.nn.Sequential(torch.nn.Linear(300, 200), torch.nn.Linear(200, 3))
    copy.load_state_dict(model.state_dict())
    assert weights_checksum(copy) == first
    with torch.no_grad():
        for p in model.parameters():
            p.add_(1e-4 * torch.randn_like(p))  # what one optimizer step does
    assert weights_checksum(model) != first


def test_policy_without_local_weights_is_unverified() -> None:
    agent = AgentConfig(model="gpt", backend="openai", base_url="http://x")
    assert policy_checksum(object(), agent) == "unverified:openai:gpt"


def test_cache_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths, "cache_dir", lambda: tmp_path)
    assert cache.load("k") is None
    cache.store("k", {"metrics": {}}, [{"node_id": 0}])
    cache.store("k", {"metrics": {"other": 1}}, [])  # the first one stays
    assert cache.load("k") == ({"metrics": {}}, [{"node_id": 0}])
    assert not [p for p in (tmp_path / "evals").iterdir() if p.name.startswith(".tmp")]
    (tmp_path / "evals" / "k" / "trees.jsonl").write_text('[1]\n{"node_id": 0}\n')
    assert cache.load("k") is None  # a damaged entry is a miss, not an error
