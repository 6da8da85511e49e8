"""The sandbox protocol: round trips of every message, the deadlines, and who may import what."""

from __future__ import annotations

import ast
import dataclasses
import os
import sys
from pathlib import Path

import pytest

from mars2.sandbox.runtime import protocol
from mars2.sandbox.runtime.protocol import (
    AssertTest,
    Ctl,
    Done,
    Infra,
    Limits,
    Ready,
    RunHeader,
    TestReport,
    ctl_message,
    ctl_split,
    decode_event,
    encode_event,
    encode_run,
    parse_run_request,
    read_run,
    run_request,
)

SANDBOX = Path(protocol.__file__).parents[1]
RUNTIME = SANDBOX / "runtime"
LIMITS = Limits(
    timeout_s=2.0, cpu_s=1.5, memory_mb=512, max_processes=8, max_file_mb=4, max_output_bytes=99
)
HEADER = RunHeader("functional", "f", LIMITS, True, False, False, "/tmp/w")


def test_header_round_trips_and_the_zygote_never_gets_the_function_name() -> None:
    assert RunHeader.from_dict(HEADER.to_dict()) == HEADER
    assert HEADER.to_dict()["limits"]["max_output_bytes"] == 99
    verb, rest = ctl_split(run_request(HEADER))
    assert verb == Ctl.RUN
    assert parse_run_request(rest) == dataclasses.replace(HEADER, fn_name=None)


def test_a_run_goes_through_a_pipe_as_three_frames() -> None:
    tests = [AssertTest("assert f(1) == 2", "").to_dict(), AssertTest("x").to_dict()]
    read, write = os.pipe()
    os.write(write, encode_run(HEADER, "def f(x): ...", tests))
    os.close(write)
    header, code, got = read_run(read)
    assert (header, code, [AssertTest.from_dict(t) for t in got]) == (
        HEADER,
        "def f(x): ...",
        [AssertTest("assert f(1) == 2"), AssertTest("x")],
    )
    with pytest.raises(EOFError):
        read_run(read)
    os.close(read)


def test_a_frame_without_the_magic_is_a_desync() -> None:
    read, write = os.pipe()
    os.write(write, b"XX" + encode_run(HEADER, "", [])[2:])
    os.close(write)
    with pytest.raises(EOFError, match="desync"):
        read_run(read)
    os.close(read)


@pytest.mark.parametrize(
    "event",
    [
        Ready(7, 65534, 8),
        TestReport(3, "ran", 0.25, value=[1, {"a": None}]),
        TestReport(0, "error", 1.0, detail="boom", load=True),
        TestReport(1, "ran", stdout="7\n"),
        Infra("the zygote is gone"),
        Done("died"),
    ],
)
def test_events_round_trip(event: protocol.Event) -> None:
    line = encode_event(event)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert decode_event(line) == event


def test_malformed_event_lines_are_infra_and_unknown_kinds_are_skipped() -> None:
    assert decode_event(b"{not json") == Infra("unreadable event b'{not json'")
    assert decode_event(b"[1, 2]") == Infra("bad event")
    assert decode_event(b'{"ev": "gossip"}') is None
    assert decode_event(b'{"ev": "test", "i": "0", "verdict": "pass"}') is None
    assert decode_event(b'{"ev": "test", "i": 2}') == TestReport(2, "infra")


def test_control_messages() -> None:
    assert ctl_message(Ctl.EXIT, 12, 9) == b"exit 12 9"
    assert ctl_split(b"failed no more pids") == (Ctl.FAILED, b"no more pids")
    assert ctl_split(Ctl.CLEAN) == (Ctl.CLEAN, b"")


def test_deadlines_are_the_documented_formulas() -> None:
    # docs/sandbox.md: a run of n tests gets n x (2 x timeout_s + 0.25) + 1 + 5 s from the host.
    assert LIMITS.run_deadline(100.0, 3) == pytest.approx(100.0 + 3 * (2 * 2.0 + 0.25) + 1 + 5)
    assert LIMITS.test_deadline(10.0) == 12.0
    assert LIMITS.alarm_s() == pytest.approx(2.05)
    assert LIMITS.cpu_limit_s(3) == int(1.5 * 4) + 1


def _imports(path: Path) -> list[tuple[str, int, list[str]]]:
    """(module imported, relative level, names imported) of every import statement in `path`."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [(alias.name, 0, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.module or "", node.level, [a.name for a in node.names]))
    return out


def _runtime_imports_from_host(path: Path) -> list[str]:
    """Modules of `runtime` other than `protocol` that a host module imports."""
    bad = []
    for module, _level, names in _imports(path):
        full = [module] if module != "mars2.sandbox.runtime" else [f"{module}.{n}" for n in names]
        bad += [
            m for m in full if m.startswith("mars2.sandbox.runtime") and not m.endswith(".protocol")
        ]
    return bad


def _runtime_violations(path: Path) -> list[str]:
    """Imports of a runtime module that break its rules: standard library or sibling modules only,
    no private names of a sibling, and `protocol` imports nothing but the standard library."""
    bad = []
    for module, level, names in _imports(path):
        top = module.split(".")[0]
        if level == 0 and top not in sys.stdlib_module_names and top != "__future__":
            bad.append(f"{module} is not the standard library")
        if level and path.name == "protocol.py":
            bad.append(f".{module}: protocol imports only the standard library")
        bad += [f"{module}.{n} is private" for n in names if level and n.startswith("_")]
    return bad


def test_the_host_imports_only_the_protocol_from_the_runtime() -> None:
    host = [p for p in SANDBOX.glob("*.py")]
    assert {p.name for p in host} >= {"__init__.py", "pool.py", "isolation.py", "compare.py"}
    assert {p.name: _runtime_imports_from_host(p) for p in host} == {p.name: [] for p in host}


def test_runtime_modules_import_the_standard_library_and_public_names_only() -> None:
    modules = list(RUNTIME.glob("*.py"))
    assert {p.name for p in modules} >= {"protocol.py", "judge.py", "zygote.py", "candidate.py"}
    assert {p.name: _runtime_violations(p) for p in modules} == {p.name: [] for p in modules}


def test_the_import_checks_catch_planted_wrong_arrows(tmp_path: Path) -> None:
    host = tmp_path / "pool.py"
    host.write_text(
        "from mars2.sandbox.runtime.zygote import remove_tree\n"
        "from mars2.sandbox.runtime import judge, protocol\n"
        "from mars2.sandbox.runtime.protocol import Limits\n"
    )
    assert _runtime_imports_from_host(host) == [
        "mars2.sandbox.runtime.zygote",
        "mars2.sandbox.runtime.judge",
    ]
    runtime = tmp_path / "protocol.py"
    runtime.write_text("import json\nimport yaml\nfrom .common import _fork, check_plain\n")
    assert _runtime_violations(runtime) == [
        "yaml is not the standard library",
        ".common: protocol imports only the standard library",
        "common._fork is private",
    ]


def test_message_keys_are_spelled_only_in_the_protocol() -> None:
    keys = {f.name for kind in (RunHeader, Limits) for f in dataclasses.fields(kind)} | {"ev"}
    keys -= {"style", "fn_name"}  # also names of `Problem` fields the host reads
    spelled = {}
    for path in [*SANDBOX.glob("*.py"), *RUNTIME.glob("*.py")]:
        if path.name == "protocol.py":
            continue
        strings = {
            node.value
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        }
        spelled[path.name] = sorted(keys & strings)
    assert spelled == {name: [] for name in spelled}
