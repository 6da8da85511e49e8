"""Seed-level intervals from per-seed summaries, for experiments whose per-problem files were not
kept (results/archive/): each arm's change during training and its difference from the reference
arm's change, with mars2's seed-level interval (runs as independent draws; with one value per run
the problem term is absent, so the true intervals are at least this wide) and Holm-adjusted
p-values over the experiment's whole family of comparisons.

    python scripts/seed_level_summary.py results/archive/ladder-2026-12-02-per-seed.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from mars2.evaluation.stats import SeedLevel, holm, seed_level_difference, seed_level_mean


def rows(data: dict) -> list[tuple[str, SeedLevel]]:  # type: ignore[type-arg]
    reference = data["reference"]
    out = []
    for metric, arms in data["change"].items():
        for arm, values in arms.items():
            out.append((f"{arm} change {metric}", seed_level_mean(np.array(values)[:, None])))
        ref = np.array(arms[reference])[:, None]
        for arm, values in arms.items():
            if arm != reference:
                diff = seed_level_difference(ref, np.array(values)[:, None])
                out.append((f"{arm} change - {reference}'s {metric}", diff))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path, help="per-seed summary JSON (results/archive/)")
    data = json.loads(parser.parse_args().file.read_text())
    found = rows(data)
    others = [p for values in data["other_p_values"].values() if isinstance(values, list)
              for p in values]  # fmt: skip
    adjusted = holm([r.p_value for _, r in found] + others)
    print(f"Holm family: {len(found) + len(others)} comparisons")
    print(f"{'comparison':42} {'value':>7} {'95% CI (seed level)':>20} {'p':>6} {'p (Holm)':>8}")
    for (name, r), p_holm in zip(found, adjusted, strict=False):
        interval = f"[{r.lo:+.3f}, {r.hi:+.3f}]"
        print(f"{name:42} {r.value:+7.3f} {interval:>20} {r.p_value:6.3f} {p_holm:8.3f}")


if __name__ == "__main__":
    main()
