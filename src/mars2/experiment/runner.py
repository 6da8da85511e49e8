"""Running an experiment: one `mars2 train` (or, for an eval-only arm, `mars2 eval --base`)
subprocess per arm x seed in OUT/<arm>/seed<k>/, skipping finished runs and resuming started ones;
after each run, one `mars2 eval` subprocess per final evaluation (`final_evals`) not done yet.

A subprocess per run, not `mars2.train` in-process: every run starts from a fresh interpreter
(no memory carried over from the run before: models, allocator caches, compiled kernels), a run
that crashes or is killed by the OOM killer costs that run only, and each run is exactly what
`mars2 train --resume DIR` does for a user, logged to DIR/run.log. A run is finished when its
final eval.json exists (and, for training, metrics.jsonl has the final step); a started one is
continued with `--resume` from its latest checkpoint (from step 0 when it has none). A final
evaluation is done when its eval.json exists. No torch.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mars2.api import team_config
from mars2.config import (
    Config,
    apply_overrides,
    build,
    dump_yaml,
    load_config,
    load_yaml,
    migrate,
    to_dict,
)
from mars2.errors import UserError
from mars2.evaluation import record as eval_record
from mars2.evaluation.protocol import differences, differing_fields, protocol
from mars2.experiment.spec import Arm, Experiment, FinalEval
from mars2.rundir import ExperimentDir, RunDir
from mars2.training.logger import logged_steps
from mars2.training.plan import plan_for


@dataclass(frozen=True)
class PlannedRun:
    """One arm at one seed, in its run directory."""

    arm: Arm
    seed: int
    folder: Path
    config: Config
    finals: tuple[FinalEval, ...] = ()

    @property
    def title(self) -> str:
        return f"{self.arm.name}/seed{self.seed}"

    @property
    def dir(self) -> RunDir:
        return RunDir(self.folder)

    @property
    def final_step(self) -> int:
        return 0 if self.arm.eval_only else self.config.train.steps

    def eval_file(self, step: int) -> Path:
        return self.dir.step_eval(step)

    @property
    def final_eval(self) -> Path:
        return self.eval_file(self.final_step)

    @property
    def first_eval(self) -> Path:
        """A training run's evaluation before its first update (step 0)."""
        return self.eval_file(0)

    @property
    def log(self) -> Path:
        return self.dir.log

    def command(self) -> list[str]:
        """The command line that runs (or continues) it."""
        mars2 = [sys.executable, "-m", "mars2"]
        if self.arm.eval_only:
            out = self.final_eval.parent
            return [*mars2, "eval", str(self.folder), "--base", "--out", str(out)]
        return [*mars2, "train", "--resume", str(self.folder)]

    def status(self) -> str:
        """`done`, `started` (with the latest checkpoint, if any) or `new`."""
        if self.finished():
            return "done"
        if not self.dir.config.is_file():
            return "new"
        pointer = self.dir.latest_pointer
        latest = pointer.read_text().strip() if pointer.is_file() else ""
        return f"started ({latest or 'no checkpoint yet'})"

    def finished(self) -> bool:
        if not self.final_eval.is_file():
            return False
        return self.arm.eval_only or self.final_step in logged_steps(self.dir.metrics)

    def final_evals(self) -> list[PlannedEval]:
        """Its final evaluations in the file's order, each agent in the team's order."""
        return [
            PlannedEval(self, final, agent)
            for final in self.finals
            if final.seeds is None or self.seed in final.seeds
            for agent in (self.config.agent_names if final.each_agent else [None])
        ]


@dataclass(frozen=True)
class PlannedEval:
    """A final evaluation of one run (`final_evals.<name>`): of its team, or of one `agent`
    alone, in RUN/evals/<name>[/<agent>]/ as `mars2 eval --out` writes it."""

    run: PlannedRun
    final: FinalEval
    agent: str | None = None

    @property
    def arm(self) -> Arm:
        return self.run.arm

    @property
    def seed(self) -> int:
        return self.run.seed

    @property
    def title(self) -> str:
        return f"{self.run.title} {self.final.name}" + (f"/{self.agent}" if self.agent else "")

    @property
    def out(self) -> RunDir:
        return self.run.dir.named_eval(self.final.name, self.agent)

    @property
    def folder(self) -> Path:
        return self.out.root

    @property
    def eval_file(self) -> Path:
        return self.out.eval_json()

    @property
    def log(self) -> Path:
        """The run's run.log: the evaluation's output follows the run's."""
        return self.run.log

    @property
    def config(self) -> Config:
        """What is evaluated: the run's config with the overrides (only `agent`, if one, as
        `mars2 eval --agents` takes it: `api.team_config`)."""
        data = apply_overrides(to_dict(self.run.config), list(self.final.overrides))
        config: Config = build(Config, data)
        if self.agent is None:
            return config
        return team_config(config, [config.agent_names.index(self.agent)])

    def command(self) -> list[str]:
        """`mars2 eval RUN --step FINAL` (`--base` for an eval-only arm), the team or `--agents
        AGENT`, the overrides; `eval.each_agent=false`: each agent alone is `each_agent: true`."""
        mars2 = [sys.executable, "-m", "mars2", "eval", str(self.run.folder)]
        weights = ["--base"] if self.arm.eval_only else ["--step", str(self.run.final_step)]
        agents = ["--agents", self.agent] if self.agent else []
        out = ["--out", str(self.folder), "eval.each_agent=false", *self.final.overrides]
        return [*mars2, *weights, *agents, *out]

    def finished(self) -> bool:
        return self.eval_file.is_file()

    def status(self) -> str:
        """`done`, `new`, or `after the run` (its run is not finished)."""
        if self.finished():
            return "done"
        return "new" if self.run.finished() else "after the run"


Job = PlannedRun | PlannedEval


def run_folder(out: Path, arm: str, seed: int) -> Path:
    return ExperimentDir(out).run(arm, seed).root


def plan(experiment: Experiment, out: Path) -> list[PlannedRun]:
    """Every arm x seed, seed-major (all arms of the first seed first: a comparison of every
    arm exists as early as possible), arms in the file's order."""
    return [
        PlannedRun(
            arm, seed, folder, experiment.config_for(arm, seed, folder), experiment.final_evals
        )
        for seed in experiment.seeds
        for arm in experiment.arms
        for folder in [run_folder(out, arm.name, seed)]
    ]


def check_protocols(experiment: Experiment, runs: Sequence[PlannedRun]) -> None:
    """Every run's evaluation protocol equals the reference arm's, but for the fields the file
    allows to differ; else a UserError naming the arm and the fields. (A final evaluation
    changes the same `eval.*` fields of every arm, so its protocols agree when these do.)"""
    reference = next(r for r in runs if r.arm.name == experiment.reference)
    expected = protocol(reference.config)
    for run in runs:
        fields = differing_fields(expected, protocol(run.config))
        refused = [f for f in fields if f not in experiment.allowed_differences]
        if refused:
            raise UserError(
                f"{experiment.path}: arms.{run.arm.name}: its evaluation protocol differs from "
                f"the reference arm {experiment.reference!r} in {', '.join(refused)}; every arm "
                "must be evaluated alike (or list the field in allow_protocol_differences)"
            )


def check_final_started(planned: PlannedEval) -> None:
    """A final evaluation's eval.json written with another protocol (the experiment file's
    `final_evals` changed since) is not counted: a UserError naming the fields (the engines as
    they resolved are left out: the config says `auto` where the record says `cpu`)."""
    if not planned.finished():
        return
    recorded = eval_record.read(planned.eval_file)["protocol"]
    fields = [
        f
        for f in differing_fields(protocol(planned.config), recorded)
        if not f.startswith("protocol.engines")
    ]
    if fields:
        raise UserError(
            f"{planned.folder} was evaluated with another protocol (it differs in "
            f"{', '.join(fields)}); restore final_evals.{planned.final.name} in the experiment "
            "file, or delete that folder to evaluate again"
        )


def check_started(run: PlannedRun) -> None:
    """A run directory written with another config (the experiment file changed since) is not
    continued or counted: a UserError naming the fields. Only the settings the run's config.yaml
    names are compared: one it does not name was added after the run started (the run used
    what that setting's value reproduces, which the experiment file may pin)."""
    file = run.dir.config
    if not file.is_file():
        return
    written = migrate(load_yaml(file), str(file))  # the keys it names, renamed ones moved
    old = named(to_dict(load_config(file)), written)
    new = named(to_dict(run.config), written)
    for config in (old, new):  # the run directory may be spelled another way
        config.pop("output", None)
    fields = differences(old, new)
    if fields:
        raise UserError(
            f"{run.folder} was started with another config (it differs in {', '.join(fields)}); "
            "restore the experiment file, or delete that folder to run it again"
        )


def named(full: Any, written: Any) -> Any:
    """`full` (a config as a mapping) restricted to the keys that `written` (the mapping a
    config file holds) names, recursively through mappings and lists of equal length."""
    if isinstance(full, dict) and isinstance(written, dict):
        return {k: named(v, written[k]) for k, v in full.items() if k in written}
    if isinstance(full, list) and isinstance(written, list) and len(full) == len(written):
        return [named(f, w) for f, w in zip(full, written, strict=True)]
    return full


def prepare(run: PlannedRun) -> None:
    """Create the run directory with its config.yaml (kept when it exists)."""
    run.folder.mkdir(parents=True, exist_ok=True)
    file = run.dir.config
    if not file.is_file():
        file.write_text(dump_yaml(run.config))


Launch = Callable[[Job], int]


def launch(job: Job) -> int:
    """Run the job's command in a subprocess, its output appended to run.log; the exit status."""
    with open(job.log, "a", encoding="utf-8") as log:
        log.write(f"$ {' '.join(job.command())}\n")
        log.flush()
        return subprocess.run(
            job.command(), stdout=log, stderr=subprocess.STDOUT, check=False
        ).returncode


def drop_optimizer_state(run: PlannedRun) -> None:
    """A finished run is never resumed: remove its optimizer state (2x the weights); the
    weights stay for `mars2 eval`, `mars2 export` and the report."""
    for folder in run.dir.checkpoint_dirs():
        (folder / "optimizer.pt").unlink(missing_ok=True)


@dataclass(frozen=True)
class Outcome:
    job: Job
    status: str  # done (already), ran, failed
    exit_code: int = 0


def execute(
    runs: Iterable[PlannedRun],
    launcher: Launch = launch,
    on_start: Callable[[Job], None] | None = None,
    on_end: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Run every run not finished yet, in order, each followed by its final evaluations not done
    yet; a failed run (its final evaluations wait for a rerun) or evaluation is reported and the
    others go on."""
    outcomes = []
    for run in runs:
        check_started(run)
        outcomes.append(_do(run, launcher, on_start, on_end))
        if run.finished():
            for planned in run.final_evals():
                check_final_started(planned)
                outcomes.append(_do(planned, launcher, on_start, on_end))
    return outcomes


def _do(
    job: Job,
    launcher: Launch,
    on_start: Callable[[Job], None] | None,
    on_end: Callable[[Outcome], None] | None,
) -> Outcome:
    """Launch the job unless it is finished; a finished run's optimizer state is dropped."""
    if job.finished():
        outcome = Outcome(job, "done")
    else:
        if isinstance(job, PlannedRun):
            prepare(job)
        if on_start:
            on_start(job)
        code = launcher(job)
        ok = code == 0 and job.finished()
        if ok and isinstance(job, PlannedRun):
            drop_optimizer_state(job)
        outcome = Outcome(job, "ran" if ok else "failed", code)
    if on_end:
        on_end(outcome)
    return outcome


def planned_nodes(config: Config) -> int:
    """Nodes a training run generates in its first rollout round of every step: problems per
    step x (GRPO group size or tree budget) x steps (refill rounds add to it unless
    `train.min_samples_per_agent` is 0)."""
    train = config.train
    return train.steps * train.problems_per_step * plan_for(config).nodes_per_problem
