"""Experiment files and finished run directories written in code (no training): a fake launcher
writes what `mars2 train` would leave behind, the final eval.json and metrics.jsonl (and, for a
final evaluation, what `mars2 eval --out` would: its eval.json)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from mars2.evaluation import record
from mars2.evaluation.outcomes import ProblemOutcome
from mars2.evaluation.protocol import protocol
from mars2.experiment.runner import Job, PlannedEval, PlannedRun

TINY = """\
config:
  agents:
    - {name: coder, model: tiny-random, role: coder, max_new_tokens: 32}
  data: {limit: 4}
set: [train.steps=2, train.problems_per_step=4, eval.limit=3, eval.samples=1, train.min_samples_per_agent=0]
seeds: [0, 1]
reference: grpo
arms:
  base: {eval_only: true}
  grpo: {set: [train.mode=grpo, train.samples_per_problem=4]}
  mcts: {set: [train.mode=mcts]}
quick: {set: [train.steps=1, eval.limit=2], seeds: [0]}
"""


def experiment_file(folder: Path, text: str = TINY, name: str = "exp.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def outcome(problem: str, passed: int, any_passed: int | None = None) -> ProblemOutcome:
    """One tree of one problem whose first attempt passed (1) or not (0)."""
    found = passed if any_passed is None else any_passed
    return ProblemOutcome(
        problem_id=problem,
        trees=1,
        attempts=1,
        attempts_passed=passed,
        mcts_passed=passed,
        any_passed=found,
        nodes=4,
        refined_trees=0,
        first_failed=1 - passed,
        refined_after_fail=0,
    )


FINALS = """\
final_evals:
  alone: {each_agent: true, set: [eval.budget=1]}
  wide: {set: [eval.budget=2, eval.limit=2]}
"""


def write_eval(
    run: PlannedRun | PlannedEval,
    path: Path,
    outcomes: Sequence[ProblemOutcome],
    checksum: str = "sha256:fake",
) -> None:
    """An eval.json of `run`'s protocol (a final evaluation's: its own) at `path`, labelled by
    its folder."""
    evaluation = record.build(
        label=path.parent.name,
        proto=protocol(run.config),
        seed=run.seed,
        problems_checksum=checksum,
        members=[],
        outcomes=list(outcomes),
        resamples=200,
    )
    record.write(path, evaluation)


def finish(
    run: PlannedRun,
    outcomes: Sequence[ProblemOutcome],
    tokens: Sequence[int] = (),
    checksum: str = "sha256:fake",
    bf16: float | None = 0.0,
) -> None:
    """Write the run directory of a finished run: config.yaml, the final eval.json and, for a
    training run, one metrics.jsonl line per step with `tokens/generated` and `bf16/coder` (the
    learner's precision as `mars2 train` records it; None: not recorded, as older runs)."""
    from mars2.experiment.runner import prepare

    prepare(run)
    write_eval(run, run.final_eval, outcomes, checksum)
    if run.arm.eval_only:
        return
    steps = tokens or [10] * run.final_step
    with open(run.folder / "metrics.jsonl", "a") as handle:
        handle.write(json.dumps({"step": 0, "eval/pass@1": 0.0}) + "\n")
        for step, count in enumerate(steps, start=1):
            row = {"step": step, "tokens/generated": count}
            if bf16 is not None:
                row["bf16/coder"] = bf16
            handle.write(json.dumps(row) + "\n")


def finish_eval(planned: PlannedEval, outcomes: Sequence[ProblemOutcome]) -> None:
    """Write a final evaluation's eval.json, as `mars2 eval --out` would."""
    write_eval(planned, planned.eval_file, outcomes)


class FakeLauncher:
    """Records the runs and final evaluations it is asked to run (`grpo/seed0`, `grpo/seed0
    alone/coder`); finishes them (every problem failed) unless told to fail with `exit_code`."""

    def __init__(self, exit_code: int = 0, problems: Sequence[str] = ("a", "b", "c")) -> None:
        self.exit_code = exit_code
        self.problems = problems
        self.launched: list[str] = []

    def __call__(self, job: Job) -> int:
        self.launched.append(job.title)
        if self.exit_code == 0:
            outcomes = [outcome(p, 0) for p in self.problems]
            if isinstance(job, PlannedEval):
                finish_eval(job, outcomes)
            else:
                finish(job, outcomes)
        return self.exit_code
