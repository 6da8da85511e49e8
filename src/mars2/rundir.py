"""The layout of a run directory: the one module that names its files and folders.

    RUN/
      config.yaml                   the resolved config, written when the run starts
      metrics.jsonl                 `mars2 train`: one JSON object per step (mars2.jsonl)
      trees/step_NNNNNN.jsonl       `mars2 train`: the node records of step N's trees
      evals/step_NNNNNN/            `mars2 train`: the evaluation after step N (0: before
        eval.json, eval-AGENT.json    training): the team's eval.json, each agent's alone,
        trees.jsonl, trees-AGENT.jsonl  and their trees
      evals/NAME/, evals/NAME/AGENT/  `mars2 experiment`: a final evaluation (`final_evals`) of
                                    the team, or of one agent alone; a `mars2 eval` folder each
      checkpoints/step_NNNNNN/      `mars2 train`: one checkpoint (inside: training/checkpoint.py)
      checkpoints/latest            one line naming the newest complete checkpoint
      tensorboard/                  TensorBoard event files (`output.tensorboard`)
      environment.jsonl             `mars2 train`: one line per start (or resume) of the run:
                                    the first step it ran, versions, source commit, CPU,
                                    GPUs (mars2.machine); in a `mars2 eval` or `search`
                                    folder: one line per evaluation, its wall `seconds` and
                                    the machine
      run.log                       `mars2 experiment`: the run's console output
      eval.json, eval-AGENT.json    `mars2 search`, and `mars2 eval`'s output folder
      trees/search.jsonl            (RUN/eval-LABEL/, laid out alike): the evaluation, each
      trees-AGENT.jsonl             agent's alone, their trees and the summary
      metrics.json
      eval-LABEL/                   `mars2 eval RUN` (LABEL: the checkpoint, or `base`)

    OUT/                            a `mars2 experiment` (ExperimentDir)
      ARM/seedK/                    one run directory per arm and seed
      results.json, results.md      the tables over the finished runs

A step is written with six digits (`step_000003`). Runs of older versions named their tree
files with five (`trees/step_00003.jsonl`): they are read as well, in step order, and a step
redone after a resume replaces its old file. No other module spells these names.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

from mars2.errors import UserError

STEP_DIGITS = 6
STEP_GLOB = "step_*"
_STEP = re.compile(r"step_(\d+)")


def step_name(step: int) -> str:
    """`step_000003`: the name of step 3's checkpoint, evaluation and trees file."""
    return f"step_{step:0{STEP_DIGITS}d}"


def step_of(name: str) -> int | None:
    """The step a name (or file stem) spells, in any number of digits; None for another name."""
    match = _STEP.fullmatch(name)
    return int(match.group(1)) if match else None


def is_step_folder(name: str) -> bool:
    """Whether the step evaluations' glob (`evals/step_*`) takes a folder of this name for one
    of theirs: another evaluation's folder must not be named so."""
    return fnmatch.fnmatch(name, STEP_GLOB)


def in_step_order(paths: list[Path]) -> list[Path]:
    """Other names first (by name), then the step files by step: `step_00003` (an older run's
    five digits) before `step_000004`, which a plain sort would not do."""

    def key(path: Path) -> tuple[bool, int, str]:
        step = step_of(path.name.split(".")[0])
        return (step is not None, step or 0, path.name)

    return sorted(paths, key=key)


@dataclass(frozen=True)
class RunDir:
    """The paths of one run directory (nothing is created or read by naming a path)."""

    root: Path

    def __init__(self, root: str | Path) -> None:
        object.__setattr__(self, "root", Path(root))

    # ------------------------------------------------------------ every run

    @property
    def config(self) -> Path:
        return self.root / "config.yaml"

    def require_config(self, what: str = "a `mars2 train` run directory") -> Path:
        """config.yaml, or a UserError saying the folder is not a run directory."""
        if not self.config.is_file():
            raise UserError(f"{self.root}: no config.yaml there; is it {what}?")
        return self.config

    @property
    def tensorboard(self) -> Path:
        return self.root / "tensorboard"

    @property
    def log(self) -> Path:
        return self.root / "run.log"

    # ------------------------------------------------------------ training

    @property
    def metrics(self) -> Path:
        """metrics.jsonl: one object per training step."""
        return self.root / "metrics.jsonl"

    @property
    def environment(self) -> Path:
        """environment.jsonl: the machine of each start of the run (mars2.machine)."""
        return self.root / "environment.jsonl"

    @property
    def trees_dir(self) -> Path:
        return self.root / "trees"

    def trees(self, step: int) -> Path:
        """trees/step_NNNNNN.jsonl, where the trees of training step `step` are written."""
        return self.trees_dir / f"{step_name(step)}.jsonl"

    def tree_files(self) -> list[Path]:
        """Every trees/*.jsonl, other names first, then the step files in step order."""
        if not self.trees_dir.is_dir():
            return []
        return in_step_order(list(self.trees_dir.glob("*.jsonl")))

    def tree_files_of(self, step: int) -> list[Path]:
        """The trees files of `step` in any spelling (an older run's five digits included)."""
        return [p for p in self.tree_files() if step_of(p.stem) == step]

    @property
    def evals_dir(self) -> Path:
        return self.root / "evals"

    def eval_dir(self, step: int) -> Path:
        """evals/step_NNNNNN/: the evaluation after training step `step` (0: before training)."""
        return self.evals_dir / step_name(step)

    def step_eval(self, step: int, agent: str | None = None) -> Path:
        """evals/step_NNNNNN/eval.json of the team, or eval-AGENT.json of one agent alone."""
        return _eval_json(self.eval_dir(step), agent)

    def step_eval_trees(self, step: int, agent: str | None = None) -> Path:
        """evals/step_NNNNNN/trees.jsonl of the team, or trees-AGENT.jsonl."""
        return self.eval_dir(step) / (f"trees-{agent}.jsonl" if agent else "trees.jsonl")

    def step_evals(self) -> list[Path]:
        """The team's evals/step_*/eval.json of every evaluated step, in step order."""
        folders = in_step_order(list(self.evals_dir.glob(STEP_GLOB)))
        return [_eval_json(f) for f in folders if _eval_json(f).is_file()]

    def named_eval(self, name: str, agent: str | None = None) -> RunDir:
        """evals/NAME/ (evals/NAME/AGENT/: one agent alone): an evaluation of the final weights
        that `mars2 experiment` runs after the run (`final_evals`), as `mars2 eval --out`
        writes it (eval.json, metrics.json, trees/search.jsonl). NAME is no step folder's
        (`is_step_folder`), so the step evaluations' glob does not see it."""
        folder = self.evals_dir / name
        return RunDir(folder / agent if agent else folder)

    @property
    def checkpoints_dir(self) -> Path:
        return self.root / "checkpoints"

    def checkpoint(self, step: int) -> Path:
        """checkpoints/step_NNNNNN/: the checkpoint after training step `step`."""
        return self.checkpoints_dir / step_name(step)

    def checkpoint_dirs(self) -> list[Path]:
        """checkpoints/step_*/ folders in step order, complete or not (training/checkpoint.py
        knows what makes one complete)."""
        if not self.checkpoints_dir.is_dir():
            return []
        return in_step_order([p for p in self.checkpoints_dir.glob(STEP_GLOB) if p.is_dir()])

    @property
    def latest_pointer(self) -> Path:
        """checkpoints/latest: one line naming the newest complete checkpoint."""
        return self.checkpoints_dir / "latest"

    # ------------------------------------------------------------ evaluations

    def eval_json(self, agent: str | None = None) -> Path:
        """eval.json of `mars2 search` or of a `mars2 eval` folder; eval-AGENT.json alone."""
        return _eval_json(self.root, agent)

    @property
    def search_trees(self) -> Path:
        """trees/search.jsonl: the team's trees of `mars2 search` or of a `mars2 eval` folder."""
        return self.trees_dir / "search.jsonl"

    def agent_trees(self, agent: str) -> Path:
        """trees-AGENT.jsonl: the trees of one agent evaluated alone (`mars2 eval`)."""
        return self.root / f"trees-{agent}.jsonl"

    @property
    def summary(self) -> Path:
        """metrics.json: the summary of `mars2 search` or of a `mars2 eval` folder."""
        return self.root / "metrics.json"

    def eval_out(self, label: str) -> RunDir:
        """RUN/eval-LABEL/, where `mars2 eval RUN` writes by default."""
        return RunDir(self.root / f"eval-{label}")

    def eval_files(self) -> list[Path]:
        """Every evaluation of the run: eval*.json, then evals/step_*/eval*.json by step."""
        own = sorted(self.root.glob("eval*.json"))
        folders = in_step_order(list(self.evals_dir.glob(STEP_GLOB)))
        return own + [file for f in folders for file in sorted(f.glob("eval*.json"))]

    def has_records(self) -> bool:
        """The run has recorded something (one just started has only its config.yaml)."""
        return self.metrics.is_file() or self.evals_dir.is_dir()


def _eval_json(folder: Path, agent: str | None = None) -> Path:
    return folder / (f"eval-{agent}.json" if agent else "eval.json")


@dataclass(frozen=True)
class ExperimentDir:
    """The paths of a `mars2 experiment` output directory: a run directory per arm and seed."""

    root: Path

    def __init__(self, root: str | Path) -> None:
        object.__setattr__(self, "root", Path(root))

    def run(self, arm: str, seed: int) -> RunDir:
        return RunDir(self.root / arm / f"seed{seed}")

    def runs(self) -> list[RunDir]:
        """Every ARM/seedK/ run directory that has written its config.yaml, sorted by path."""
        found = self.root.glob(f"*/seed*/{RunDir(self.root).config.name}")
        return [RunDir(p) for p in sorted(file.parent for file in found)]

    @property
    def results_json(self) -> Path:
        return self.root / "results.json"

    @property
    def results_md(self) -> Path:
        return self.root / "results.md"
