"""Pieces of mars2.cluster that need no cluster: engine choice, config checks, Ray being optional."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mars2.cluster.proxies import _least_loaded
from mars2.config import DistConfig, load_config
from mars2.errors import ConfigError, UserError
from mars2.train.placement import make_placement


def test_least_loaded_prefers_idle_engines_then_round_robin() -> None:
    assert _least_loaded([2, 0, 1], turn=0) == 1
    assert _least_loaded([1, 1, 1], turn=0) == 0
    assert _least_loaded([1, 1, 1], turn=1) == 1
    assert _least_loaded([1, 1, 1], turn=5) == 2  # 5 % 3
    assert _least_loaded([0, 1, 0], turn=1) == 2  # tie between 0 and 2, turn 1 -> 2 comes first


@pytest.mark.parametrize(
    ("field", "value"),
    [("cpus_per_actor", 0.0), ("max_restarts", -1), ("timeout_s", 0.0), ("engines_per_agent", 0)],
)
def test_dist_config_rejects_bad_values(field: str, value: float) -> None:
    with pytest.raises(ConfigError, match=field):
        DistConfig(**{field: value})  # type: ignore[arg-type]


def test_import_mars2_cluster_imports_neither_ray_nor_the_trainer() -> None:
    """Ray stays optional, and the Trainer's placement imports this package, not the reverse."""
    code = (
        "import sys, mars2.cluster, mars2.cluster.placement; "
        "print('ray' in sys.modules, 'mars2.train.placement' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_ray_backend_without_ray_is_a_user_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    config = load_config(None, ["dist.backend=ray", "agents=[{model: tiny-random}]"])
    with pytest.raises(UserError, match=r"pip install 'mars2\[ray\]'"):
        make_placement(config)
