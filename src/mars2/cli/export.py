"""`mars2 export RUN_DIR --agent NAME --out DIR`: a trained agent as a plain HF model folder."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from mars2.config import load_config
from mars2.errors import UserError
from mars2.rundir import RunDir

console = Console()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "export",
        help="Write a trained agent of a run as an HF model folder (LoRA merged, with tokenizer).",
        description="Write one agent of a run's checkpoint as an HF model folder: weights "
        "(LoRA merged into the base), config, generation config and tokenizer with its chat "
        "template. transformers' from_pretrained, vLLM and `mars2 search --agents DIR` load it.",
    )
    parser.add_argument("run_dir", metavar="RUN_DIR", help="A `mars2 train` run directory.")
    parser.add_argument("--step", type=int, help="Checkpoint step (default: the latest).")
    parser.add_argument("--agent", required=True, metavar="NAME", help="The agent to export.")
    parser.add_argument("--out", required=True, metavar="DIR", help="New folder to write.")
    parser.add_argument("--debug", action="store_true", help="Show tracebacks for errors.")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mars2.training.restore import checkpoint_path, export

    run_dir = Path(args.run_dir)
    config = load_config(RunDir(run_dir).require_config())
    names = config.agent_names
    if args.agent not in names:
        raise UserError(f"--agent {args.agent!r}: the run's agents are {', '.join(names)}")
    path = checkpoint_path(run_dir, args.step)
    out = export(config, path, args.agent, Path(args.out), run_dir)
    console.print(f"[bold]mars2 export[/] {args.agent} of {path} -> {out}")
    console.print(f"load it with AutoModelForCausalLM.from_pretrained({str(out)!r})")
    return 0
