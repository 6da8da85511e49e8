"""Shared fixtures. Tests run on CPU with tiny models built in code; nothing is downloaded."""

from __future__ import annotations

from collections import defaultdict
from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Every run ends with how many tests skipped and why (one line per reason, with the files),
    so a test that never runs here (vllm, a GPU, the bundled model) is visible in CI's output."""
    reports = terminalreporter.stats.get("skipped", [])
    ran = sum(len(terminalreporter.stats.get(k, [])) for k in ("passed", "failed", "error"))
    by_reason: dict[str, list[str]] = defaultdict(list)
    for report in reports:
        if isinstance(report.longrepr, tuple):  # (path, line, "Skipped: reason")
            path, _, reason = report.longrepr
        else:
            path, reason = report.nodeid.split("::")[0], str(report.longrepr)
        by_reason[reason.removeprefix("Skipped: ")].append(str(path))
    terminalreporter.section(f"skipped: {len(reports)} of {len(reports) + ran} tests")
    for reason, paths in sorted(by_reason.items(), key=lambda item: -len(item[1])):
        files = ", ".join(sorted(set(paths)))
        terminalreporter.write_line(f"{len(paths):4d}  {reason}  [{files}]")
