"""CI check: every folder under tests/ that holds test_*.py files collects at least one test.

pytest silently skips folders it treats as build output (`dist`, `build`, `*.egg`, ...); a test
folder with such a name would never run. Usage: `python3 .ci/collected.py` (exit 1 on a gap).
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path


def main() -> int:
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    if done.returncode not in (0, 5):  # 5: nothing collected, reported below per folder
        print(done.stdout[-5000:], done.stderr[-5000:], sep="\n")
        print(f"collected.py: pytest --collect-only failed (exit {done.returncode})")
        return 1
    counts: Counter[Path] = Counter()
    for line in done.stdout.splitlines():
        if "::" in line:
            counts[Path(line.split("::", 1)[0]).parent] += 1
    folders = sorted({p.parent.relative_to(root) for p in (root / "tests").rglob("test_*.py")})
    empty = [folder for folder in folders if counts[folder] == 0]
    for folder in folders:
        print(f"  {counts[folder]:5d} tests  {folder}")
    if empty:
        names = ", ".join(str(f) for f in empty)
        print(f"collected.py: FAIL: no tests collected in {names} (a folder name pytest skips?)")
        return 1
    print(f"collected.py: every test folder collects tests ({sum(counts.values())} in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
