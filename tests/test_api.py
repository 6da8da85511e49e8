"""The Python API: the examples of docs/api.md run as written (in order, in a temporary folder)."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mars2
from mars2.errors import ConfigError, UserError

ROOT = Path(__file__).resolve().parents[1]


def test_import_mars2_is_cheap_and_exposes_the_api() -> None:
    code = "import sys, mars2; print('torch' in sys.modules, callable(mars2.search), callable(mars2.train))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "True"]
    assert set(mars2.__all__) >= {"load_config", "search", "train", "evaluate", "register_reward"}
    with pytest.raises(AttributeError):
        _ = mars2.no_such_thing
    # the subpackages are not called search/train: importing them never hides the functions
    importlib.import_module("mars2.training.loop")
    importlib.import_module("mars2.treesearch")
    assert callable(mars2.search) and callable(mars2.train)


def test_agents_are_named_by_their_roles() -> None:
    agents = mars2.agents_for(["tiny-random"] * 3)
    assert [(a.name, a.role) for a in agents] == [
        ("coder", "coder"),
        ("debugger", "debugger"),
        ("coder-2", "coder"),
    ]


@pytest.mark.slow
def test_docs_api_examples_run(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "api.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 4
    (tmp_path / "configs").symlink_to(ROOT / "configs")
    script = tmp_path / "examples.py"
    script.write_text("\n".join(blocks))
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "run" / "metrics.jsonl").is_file()


def test_registry_names_are_checked_when_the_config_loads() -> None:
    with pytest.raises(ConfigError, match="did you mean 'binary'"):
        mars2.load_config(None, ["credit.reward=binray"])
    with pytest.raises(ConfigError, match="cannot import"):
        mars2.load_config(None, ["search.algo=no_such_module:Algo"])
    config = mars2.load_config(None, ["credit.reward=mars2.credit.rewards:binary_reward"])
    assert config.credit.reward == "mars2.credit.rewards:binary_reward"
    with pytest.raises(UserError, match="built in"):
        mars2.register_reward("binary", lambda record: 0.0)
