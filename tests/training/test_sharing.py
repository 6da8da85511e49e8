"""Agents that share weights: `share_with` (one learner, one optimizer over both agents'
samples, each agent its own role and metrics) with its config errors, and LoRA agents of one
base model (one base in memory, an adapter and optimizer each, generation through one's own
adapter)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch

from learner_fixtures import agent_batch as batch
from learner_fixtures import make_config
from mars2.config import load_config
from mars2.errors import ConfigError, UserError
from mars2.rollout.engines import AdapterView
from mars2.training.learner import Learner
from mars2.training.loop import Trainer
from mars2.training.placement import LocalPlacement, OwnedWeights, owned_weights
from mars2.types import Sample


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["agents.1.share_with=nobody"], "no agent has that name"),
        (["agents.1.share_with=debugger"], "cannot share with itself"),
        (["agents.1.share_with=coder", "agents.0.share_with=debugger"], "in turn"),
        (["agents.1.share_with=coder", "agents.1.lora_rank=4"], "same lora_rank"),
        (["agents.1.share_with=coder", "agents.1.model=smollm2-135m"], "same model"),
        (["agents.1.share_with=coder", "agents.1.temperature=0.5"], "same temperature"),
    ],
)
def test_share_with_config_errors(overrides: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as err:
        make_config(*overrides)
    assert "share_with" in err.value.field


def test_share_with_error_names_the_file(tmp_path: Path) -> None:
    file = tmp_path / "bad.yaml"
    file.write_text("agents:\n  - {name: a, model: tiny-random}\n  - {name: b, share_with: c}\n")
    with pytest.raises(UserError, match=r"bad.yaml.*agents.1.share_with"):
        load_config(file)


class Recording:
    """A learner that records the samples of each update and counts steps (a test spy)."""

    def __init__(self, learner: Learner) -> None:
        self.learner = learner
        self.batches: list[list[Sample]] = []

    def update(self, samples: list[Sample]) -> dict[str, float]:
        self.batches.append(list(samples))
        return self.learner.update(samples)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.learner, name)


def test_share_with_trains_one_optimizer_on_both_agents_samples(tmp_path: Path) -> None:
    config = make_config("agents.1.share_with=coder")
    placement = LocalPlacement(config)
    coder, debugger = placement.learners
    assert coder is debugger and isinstance(coder, Learner)
    # both agents generate with the learner's model, on one engine (same sampling settings)
    assert placement.policies[0].name == "coder" and placement.policies[1].name == "debugger"
    assert getattr(placement.policies[1], "_engine", None) is placement.policies[0]
    n_params = len(list(coder.model.parameters()))
    spy = Recording(coder)
    placement.learners = [spy, spy]  # type: ignore[list-item]
    trainer = Trainer(config, tmp_path, placement)
    weights = {k: v.clone() for k, v in coder.model.state_dict().items()}
    metrics: dict[str, Any] = {}
    trainer._update(batch(0) + batch(1, sign=-1.0)[:2], metrics)
    assert len(spy.batches) == 1 and len(spy.batches[0]) == 5  # one step on the union
    assert {s.agent_id for s in spy.batches[0]} == {0, 1}
    assert metrics["samples/coder"] == 3 and metrics["samples/debugger"] == 2
    assert metrics["loss/coder"] == metrics["loss/debugger"]
    state = coder.optimizer.state_dict()["state"]
    assert len(state) == n_params and all(int(s["step"]) == 1 for s in state.values())
    changed = [k for k, v in coder.model.state_dict().items() if not torch.equal(v, weights[k])]
    assert changed
    # a checkpoint holds the weights once, under the owner's name
    saved = trainer.state_dict()
    assert list(saved["learners"]) == ["coder"] and saved["shares"] == {"debugger": "coder"}
    placement.close()


def _lora_weights(model: Any, adapter: str) -> dict[str, torch.Tensor]:
    tag = f".{adapter}."
    return {
        n.replace(tag, "."): p.detach().clone()
        for n, p in model.named_parameters()
        if "lora_" in n and tag in n
    }


def test_lora_agents_share_one_frozen_base_with_their_own_adapters(tmp_path: Path) -> None:
    config = make_config("agents.0.lora_rank=4", "agents.1.lora_rank=4")
    placement = LocalPlacement(config)
    coder, debugger = placement.learners
    assert isinstance(coder, Learner) and isinstance(debugger, Learner)
    assert coder is not debugger and coder.optimizer is not debugger.optimizer
    assert coder.model is debugger.model  # one peft model, one base
    base = coder.model.get_base_model()
    base_weights = {
        n: (p.data_ptr(), p.detach().clone())
        for n, p in base.named_parameters()
        if "lora_" not in n
    }
    assert base_weights
    # each agent's engine generates through its own adapter of that model
    views = [placement.policies[i].model for i in (0, 1)]  # type: ignore[attr-defined]
    assert all(isinstance(v, AdapterView) for v in views)
    assert [v.adapter for v in views] == [coder.adapter, debugger.adapter]
    assert views[0].peft is views[1].peft is coder.model
    trainer = Trainer(config, tmp_path, placement)
    before = [_lora_weights(coder.model, a) for a in (coder.adapter, debugger.adapter)]
    trainer._update(batch(0) + batch(1, sign=-1.0), {})
    after = [_lora_weights(coder.model, a) for a in (coder.adapter, debugger.adapter)]
    for old, new in zip(before, after, strict=True):  # both adapters moved...
        assert any(not torch.equal(old[k], new[k]) for k in old)
    assert any(not torch.equal(after[0][k], after[1][k]) for k in after[0])  # ...apart
    for n, p in base.named_parameters():  # the base is shared (same storage) and unchanged
        if "lora_" not in n:
            ptr, value = base_weights[n]
            assert p.data_ptr() == ptr and torch.equal(p.detach(), value), n
    # generation for agent k uses adapter k: each view gives its learner's logits
    ids = torch.tensor([[1, 5, 9, 14, 3]])
    with torch.no_grad():
        out = [view(input_ids=ids).logits for view in views]
        for learner, got in zip((coder, debugger), out, strict=True):
            learner._activate()
            assert torch.equal(learner.model(input_ids=ids).logits, got)
    assert not torch.allclose(out[0], out[1])
    placement.close()


def test_owned_weights_groups_lora_agents_by_base() -> None:
    # agents 0, 1, 3: LoRA on tiny-random (one base); 2 shares 0's weights (owns none); 4: full
    # fine-tuning of tiny-random (a model of its own); 5: LoRA alone on its base
    agents = [
        "{name: a, model: tiny-random, lora_rank: 4}",
        "{name: b, model: tiny-random, lora_rank: 4}",
        "{name: c, model: tiny-random, lora_rank: 4, share_with: a}",
        "{name: d, model: tiny-random, lora_rank: 4}",
        "{name: e, model: tiny-random, lora_rank: 0}",
        "{name: f, model: tiny-random-base, lora_rank: 4}",
        "{name: g, model: tiny-random, trainable: false}",
    ]
    config = make_config(f"agents=[{', '.join(agents)}]")
    base = ("tiny-random", config.agents[0].device, config.agents[0].dtype)
    assert owned_weights(config) == [
        OwnedWeights(0, base, first=True),
        OwnedWeights(1, base, first=False),
        OwnedWeights(3, base, first=False),
        OwnedWeights(4, None, first=False),
        OwnedWeights(5, None, first=False),
    ]
    assert [o.adapter for o in owned_weights(config)] == [
        "agent0",
        "agent1",
        "agent3",
        "agent4",
        "agent5",
    ]
