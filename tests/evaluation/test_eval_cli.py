"""`mars2 eval --problems SET` on tiny-random: the set is checked before any model loads, a
limit that keeps only the first problems is said plainly, progress lines appear when the output
is not a terminal, and library warnings stay out of the user's output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mars2.cli import main
from mars2.config import dump_yaml, load_config

ROOT = Path(__file__).resolve().parents[2]

# `mars2 eval` whose model loading also emits what transformers / torch / peft print: a Python
# warning and a warning on transformers' logger (test code only).
NOISY = r"""
import sys, warnings
from transformers.utils import logging as hf_logging
from mars2.rollout import engines

load_policies = engines.load_policies


def noisy(*args, **kwargs):
    warnings.warn("LIBRARY-NOISE", FutureWarning)
    hf_logging.get_logger("transformers.modeling_utils").warning("HF-LOGGER-NOISE")
    return load_policies(*args, **kwargs)


engines.load_policies = noisy
from mars2.cli import main

sys.exit(main(sys.argv[1:]))
"""


def run_dir(tmp_path: Path) -> Path:
    """A run directory with config.yaml and no checkpoint (tiny-random agents)."""
    run = tmp_path / "run"
    run.mkdir()
    config = load_config(ROOT / "configs" / "tiny.yaml", ["output.tensorboard=false"])
    (run / "config.yaml").write_text(dump_yaml(config))
    return run


def test_a_bad_set_fails_before_any_model_loads(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    # no checkpoint: loading the (trained) models first would fail on that instead
    assert main(["eval", str(run_dir(tmp_path)), "--problems", "bundled:nosuch"]) == 2
    err = capsys.readouterr().err.replace("\n", "")
    assert "unknown bundled set" in err and "checkpoint" not in err and "Traceback" not in err


@pytest.mark.slow
def test_limit_progress_lines_and_no_library_warnings(tmp_path: Path) -> None:
    out = tmp_path / "eval"
    argv = ["eval", str(run_dir(tmp_path)), "--base", "--problems", "bundled:basic",
            "--budget", "2", "--samples", "1", "--out", str(out),
            "eval.limit=3", "eval.cache=false", "eval.each_agent=false"]  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", NOISY, *argv], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    text = done.stdout.replace("\n", " ")
    assert "bundled:basic: evaluating the first 3 of its" in text and "eval.limit=3" in text
    # not a terminal: plain progress lines, the last one at 100%
    lines = [line for line in done.stderr.splitlines() if "mars2.cli.eval: eval:" in line]
    assert "3 trees to grow" in lines[0] and "3/3 trees (100%)" in lines[-1], done.stderr
    assert "NOISE" not in done.stdout + done.stderr
    assert (out / "eval.json").is_file()


def test_samples_flag_is_eval_samples_the_attempts_per_problem() -> None:
    """`--samples N` sets `eval.samples`: N attempts per problem, each the first node of its own
    tree, of which `eval.trees` grow the full search (docs/search.md, "Evaluation protocol")."""
    import argparse

    from mars2.cli import build_parser
    from mars2.cli.eval import _overrides

    args = build_parser().parse_args(["eval", "runs/x", "eval.trees=1", "--samples", "3"])
    assert _overrides(args) == ["eval.samples=3", "eval.trees=1"]
    config = load_config(None, _overrides(args))
    assert (config.eval.samples, config.eval.trees) == (3, 1)
    (eval_parser,) = [
        a.choices["eval"]
        for a in build_parser()._actions
        if isinstance(a, argparse._SubParsersAction)
    ]
    (samples,) = [a for a in eval_parser._actions if "--samples" in a.option_strings]
    assert samples.help is not None
    assert "Attempts per problem (eval.samples)" in samples.help and "eval.trees" in samples.help
