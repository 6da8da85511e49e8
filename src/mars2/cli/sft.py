"""`mars2 sft`: the supervised warm-up on hindsight repair pairs from trees, with resume."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from rich.console import Console

from mars2.cli.common import add_common
from mars2.errors import UserError

if TYPE_CHECKING:
    from mars2.api import TrainStart

console = Console()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "sft",
        help="Supervised warm-up on hindsight repair pairs from finished trees.",
        description="Supervised warm-up before RL: from finished trees of training problems "
        "(the base model's own: `mars2 search` over the training split, or a run's trees/), "
        "pairs of a failed node's refinement prompt and the closest passing program of its "
        "tree; `train.steps` steps of `train.sft_pairs_per_step` pairs (docs/training.md, "
        '"Supervised warm-up").',
    )
    add_common(parser)
    parser.add_argument(
        "--trees",
        nargs="+",
        metavar="PATH",
        help="Tree files (trees/*.jsonl) or run / search directories to take the pairs from.",
    )
    parser.add_argument(
        "--resume", metavar="RUN_DIR", help="Continue a warm-up from its latest checkpoint."
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mars2.api import sft

    if args.resume and args.config:
        raise UserError("--resume takes the run's own config.yaml; drop --config")

    def on_start(start: TrainStart) -> None:
        console.print(f"[bold]mars2 sft[/] agents={len(start.config.agents)} -> {start.out}")
        if start.resumed_from is not None:
            console.print(f"resumed from {start.resumed_from} (step {start.step})")

    def on_step(metrics: dict[str, Any]) -> None:
        nll = "  ".join(f"{k} {v:.3f}" for k, v in metrics.items() if k.startswith("sft_nll/"))
        evals = f"  eval pass@1 {metrics['eval/pass@1']:.3f}" if "eval/pass@1" in metrics else ""
        console.print(f"step {metrics['step']}: {nll}{evals}".rstrip())

    sft(
        args.trees or (),
        args.config,
        out=args.out,
        resume=args.resume,
        overrides=args.overrides or [],
        on_start=on_start,
        on_step=on_step,
    )
    return 0
