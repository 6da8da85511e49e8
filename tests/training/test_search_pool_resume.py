"""The search's pooled statistics (`search.pooling: run`) are saved with a checkpoint, restored on
resume and handed to the training rollout's orchestrator."""

from __future__ import annotations

from pathlib import Path

from learner_fixtures import make_config
from mars2.config import dump_yaml
from mars2.training import checkpoint
from mars2.training.loop import Trainer
from mars2.training.placement import LocalPlacement
from mars2.treesearch.pool import Moments
from simulated import SimSandbox


def test_resume_restores_the_search_pool(tmp_path: Path) -> None:
    config = make_config("search.pooling=run")
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "config.yaml").write_text(dump_yaml(config))
    trainer = Trainer(config, run_dir, LocalPlacement(config))
    trainer.search_pool.add(0, "fresh", 0.5)
    trainer.search_pool.add(1, "repair", 0.25, weight=0.8)
    trainer.step = 1
    path = checkpoint.save(run_dir, 1, trainer.state_dict())

    fresh = Trainer(config, run_dir, LocalPlacement(config))
    assert fresh.search_pool.stats == {}
    fresh.load_state_dict(checkpoint.load(path))
    assert fresh.search_pool.stats == trainer.search_pool.stats
    assert fresh.search_pool.stats[(1, "repair")] == Moments(0.8, 0.2, 0.05)
    # the rollout carries the restored pool on, in place
    assert fresh._orchestrator(SimSandbox()).pool is fresh.search_pool
