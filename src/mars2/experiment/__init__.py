"""Experiments: arms x seeds of training runs on one evaluation protocol, run resumably, with one
table of Pass@1, Pass@1(MCTS), Pass@N (95% intervals over runs and problems) and differences
against a reference arm with Holm-adjusted p-values (`mars2 experiment FILE`, docs/experiments.md).

    from mars2.experiment import check_protocols, collect, execute, load_experiment, plan, write
    experiment = load_experiment("configs/ladder.yaml", quick=True)
    runs = plan(experiment, Path("runs/ladder-quick"))
    check_protocols(experiment, runs)  # every arm evaluated alike, before hours of training
    execute(runs)  # each run, then its final evaluations (`final_evals`)
    write(collect(experiment, runs), Path("runs/ladder-quick"))
"""

from mars2.experiment.results import collect
from mars2.experiment.runner import PlannedEval, PlannedRun, check_protocols, execute, plan
from mars2.experiment.spec import Arm, Experiment, FinalEval, load_experiment, with_arms
from mars2.experiment.table import markdown, write

__all__ = [
    "Arm",
    "Experiment",
    "FinalEval",
    "PlannedEval",
    "PlannedRun",
    "check_protocols",
    "collect",
    "execute",
    "load_experiment",
    "markdown",
    "plan",
    "with_arms",
    "write",
]
