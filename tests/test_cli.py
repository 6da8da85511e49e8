"""The CLI conventions: help, exit codes, config show, doctor."""

from __future__ import annotations

import subprocess
import sys

import yaml

from mars2.cli import main


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mars2", *argv], capture_output=True, text=True, timeout=120
    )


def test_help_lists_commands() -> None:
    out = run("--help")
    assert out.returncode == 0
    assert "doctor" in out.stdout and "config" in out.stdout


def test_config_show_prints_resolved_yaml() -> None:
    out = run("config", "show", "search.budget=5")
    assert out.returncode == 0
    assert yaml.safe_load(out.stdout)["search"]["budget"] == 5


def test_config_show_docs(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["config", "show", "--docs"]) == 0
    assert "search.budget" in capsys.readouterr().out


def test_user_error_exits_2_with_one_message_and_no_traceback() -> None:
    out = run("config", "show", "search.no_such_key=1")
    assert out.returncode == 2
    assert "search.no_such_key" in out.stderr
    assert "Traceback" not in out.stderr


def test_debug_shows_the_traceback() -> None:
    out = run("config", "show", "--debug", "search.no_such_key=1")
    assert out.returncode != 0
    assert "Traceback" in out.stderr


def test_doctor_runs() -> None:
    out = run("doctor")
    assert out.returncode == 0
    assert "sandbox isolation" in out.stdout and "torch" in out.stdout
    import torch

    if not torch.cuda.is_available():  # which rollout precision the CPU gets
        assert "cpu bfloat16" in out.stdout


def test_overrides_may_follow_flags(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["config", "show", "search.budget=7", "--debug", "search.algo=refine"]) == 0
    shown = yaml.safe_load(capsys.readouterr().out)["search"]
    assert (shown["budget"], shown["algo"]) == (7, "refine")


def test_unknown_flag_is_a_usage_error() -> None:
    out = run("config", "show", "--bogus")
    assert out.returncode == 2 and "--bogus" in out.stderr
