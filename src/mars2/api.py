"""The public Python API, re-exported by `mars2` (docs/api.md, whose examples the tests run).

    import mars2
    summary = mars2.search("bundled:basic-test", ["tiny-random"], budget=4, limit=2)
    config = mars2.load_config("configs/smoke.yaml", ["train.steps=1"])
    last = mars2.train(config, out="runs/mine")
    last = mars2.train(resume="runs/mine", overrides=["train.steps=4"])  # continue it
    result = mars2.evaluate("runs/mine")
    record = mars2.budget("runs/mine", budgets=[4, 8], algos=["abmcts", "best_first"])

Extension points are registries (mars2.registry): `register_reward`, `register_problem_set`,
`register_backend`, `register_algorithm`, `register_loss`, `register_kl_estimator`,
`register_aggregation`. The CLI is a thin layer over these functions: it parses
arguments, prints and sets the exit code (`mars2 train --resume RUN` is `train(resume=RUN)`).
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mars2.config import (
    AgentConfig,
    Config,
    apply_overrides,
    build,
    dump_yaml,
    load_config,
    to_dict,
)
from mars2.errors import UserError
from mars2.registry import (
    AGGREGATIONS,
    ALGORITHMS,
    BACKENDS,
    KL_ESTIMATORS,
    LOSSES,
    PROBLEM_SETS,
    REWARDS,
)
from mars2.rundir import RunDir

ROLES = ("coder", "debugger")

__all__ = [
    "TrainStart",
    "agents_for",
    "budget",
    "evaluate",
    "load_config",
    "register_aggregation",
    "register_algorithm",
    "register_backend",
    "register_kl_estimator",
    "register_loss",
    "register_problem_set",
    "register_reward",
    "run_directory",
    "search",
    "train",
]


def agents_for(
    models: Sequence[str | AgentConfig], *, trainable: bool = True
) -> tuple[AgentConfig, ...]:
    """One agent per model spec, roles alternating coder, debugger and named by their role (a
    repeated role gets its index: `coder`, `debugger`, `coder-2`); AgentConfigs pass through."""
    agents: list[AgentConfig] = []
    for i, model in enumerate(models):
        if isinstance(model, AgentConfig):
            agents.append(model)
            continue
        role = ROLES[i % len(ROLES)]
        name = role if i < len(ROLES) else f"{role}-{i // len(ROLES) + 1}"
        agents.append(AgentConfig(name=name, model=model, role=role, trainable=trainable))
    if not agents:
        raise UserError("agents: name at least one model")
    return tuple(agents)


def run_directory(config: Config, command: str) -> Path:
    """Create the run directory (`output.out`, else runs/<command>-<time>) with config.yaml."""
    out = Path(config.output.out or f"runs/{command}-{time.strftime('%Y%m%d-%H%M%S')}")
    out.mkdir(parents=True, exist_ok=True)
    RunDir(out).config.write_text(dump_yaml(config))
    return out


def search(
    problems: str | None = None,
    agents: Sequence[str | AgentConfig] | None = None,
    *,
    config: Config | None = None,
    algo: str | None = None,
    budget: int | None = None,
    limit: int | None = None,
    out: str | Path | None = None,
    models: dict[int, tuple[Any, Any]] | None = None,
    on_tree: Callable[[Any], None] | None = None,
) -> dict[str, Any]:
    """Search every problem with the agents and return the metrics.json summary: the
    evaluation protocol's `eval.samples` fresh attempts per problem, `eval.trees` of them grown
    into a search of `search.algo` with `search.budget` nodes (`eval.samples=1`: one tree per
    problem). The summary has `pass@1`, `pass@1_mcts`, `pass@n` with `_lo`/`_hi` 95%
    interval ends, tree shape, per-agent figures, tokens/s. Arguments override `config` (default:
    the default config); `out` also writes eval.json, metrics.json and trees/search.jsonl there.
    `models` gives (model, tokenizer) for agents whose weights come from elsewhere; `out` also
    gets environment.jsonl, its wall `seconds` and the machine."""
    from mars2 import jsonl, machine
    from mars2.evaluation.run import evaluate_teams, summary

    config = _with(config, problems, agents, algo=algo, budget=budget, limit=limit)
    names = config.agent_names
    started = time.perf_counter()
    (evaluation,) = evaluate_teams(
        config,
        [list(range(len(config.agents)))],
        label="search",
        models=models,
        search=config.search,
        on_tree=on_tree,
    )
    wall = time.perf_counter() - started
    result = summary(evaluation, names)
    stats = evaluation.stats
    result.update(
        {
            "wall_s": wall,
            "tokens": stats.tokens,
            "tokens_per_s": stats.tokens / wall if wall else 0.0,
            "time/busy/generate": stats.generate_s,
            "time/busy/execute": stats.execute_s,
        }
    )
    if out is not None:
        folder = RunDir(out)
        evaluation.write(folder.eval_json(), folder.search_trees)
        folder.summary.write_text(json.dumps(result, indent=2) + "\n")
        jsonl.append(folder.environment, [{"seconds": round(wall, 1), **machine.facts()}])
    return result


def _with(
    config: Config | None,
    problems: str | None,
    agents: Sequence[str | AgentConfig] | None,
    *,
    algo: str | None,
    budget: int | None,
    limit: int | None,
) -> Config:
    config = config or load_config()
    search_config = config.search
    if algo is not None:
        search_config = dataclasses.replace(search_config, algo=algo)
    if budget is not None:
        search_config = dataclasses.replace(search_config, budget=budget)
    evaluation = config.eval
    if problems is not None:
        evaluation = dataclasses.replace(evaluation, problems=problems)
    if limit is not None:
        evaluation = dataclasses.replace(evaluation, limit=limit)
    chosen = config.agents if agents is None else agents_for(agents, trainable=False)
    return dataclasses.replace(config, search=search_config, eval=evaluation, agents=chosen)


@dataclasses.dataclass(frozen=True)
class TrainStart:
    """What `train` tells its `on_start` hook once the run is built (models loaded, a resumed
    run's checkpoint restored), before the first step."""

    config: Config
    out: Path  # the run directory
    step: int  # steps already done: 0 for a new run
    resumed_from: Path | None  # the checkpoint a resumed run continues from (None: none yet)


def train(
    config: Config | str | Path | None = None,
    *,
    out: str | Path | None = None,
    resume: str | Path | None = None,
    overrides: Sequence[str] = (),
    on_start: Callable[[TrainStart], None] | None = None,
    on_step: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Run `mars2 train` on `config` (a Config or a YAML path; default: the main job) updated by
    dotted `overrides`, into `out` (default `output.out`, else runs/train-<time>), and return the
    last value of every metric (`eval/pass@1`, `train/reward/mean`, ...).

    `resume=RUN_DIR` continues that run from its latest checkpoint (from step 0 when it has none
    yet) with the run's own config.yaml and `overrides`; a `config` given too must be that config.
    `on_start` sees the built run (`TrainStart`); `on_step` sees each metrics.jsonl line."""
    from mars2.cluster import make_placement
    from mars2.training import checkpoint
    from mars2.training.loop import Trainer

    if resume is None:
        config = _train_config(config, overrides)
        if out is not None:
            config = dataclasses.replace(
                config, output=dataclasses.replace(config.output, out=str(out))
            )
        folder, path = run_directory(config, "train"), None
    else:
        config, folder = _resumed(config, Path(resume), out, overrides)
        path = checkpoint.latest(folder)
    trainer = Trainer(config, folder, make_placement(config))
    if path is not None:
        trainer.load_state_dict(checkpoint.load(path))
    if on_start is not None:
        on_start(TrainStart(config, folder, trainer.step, path))
    return trainer.fit(on_step)


def sft(
    sources: Sequence[str | Path] = (),
    config: Config | str | Path | None = None,
    *,
    out: str | Path | None = None,
    resume: str | Path | None = None,
    overrides: Sequence[str] = (),
    on_start: Callable[[TrainStart], None] | None = None,
    on_step: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Run `mars2 sft`, the supervised warm-up on hindsight repair pairs (docs/training.md,
    "Supervised warm-up"), and return the last value of every metric. The pairs come from the
    trees in `sources` (tree files, or run and search directories) of `config`'s training
    problems and are written to the run's pairs.jsonl; `resume=RUN_DIR` continues a warm-up
    from its latest checkpoint on that file's pairs (no `sources` then)."""
    from mars2.cluster import make_placement
    from mars2.training import checkpoint
    from mars2.training.hindsight import read_pairs, write_pairs
    from mars2.training.warmup import PAIRS_FILE, WarmUp, config_pairs

    if resume is None:
        if not sources:
            raise UserError("mars2 sft: name the trees to take repair pairs from")
        config = _train_config(config, overrides)
        if out is not None:
            config = dataclasses.replace(
                config, output=dataclasses.replace(config.output, out=str(out))
            )
        pairs = config_pairs(config, sources)  # before any model loads
        folder, path = run_directory(config, "sft"), None
        write_pairs(folder / PAIRS_FILE, pairs)
    else:
        if sources:
            raise UserError("--resume trains on the run's own pairs.jsonl; drop the trees")
        config, folder = _resumed(config, Path(resume), out, overrides)
        if not (folder / PAIRS_FILE).is_file():
            raise UserError(f"resume={folder}: no {PAIRS_FILE} there; is it a `mars2 sft` run?")
        pairs, path = read_pairs(folder / PAIRS_FILE), checkpoint.latest(folder)
    trainer = WarmUp(config, folder, pairs, make_placement(config))
    if path is not None:
        trainer.load_state_dict(checkpoint.load(path))
    if on_start is not None:
        on_start(TrainStart(config, folder, trainer.step, path))
    return trainer.fit(on_step)


def _train_config(config: Config | str | Path | None, overrides: Sequence[str]) -> Config:
    if not isinstance(config, Config):
        return load_config(config, list(overrides))
    if not overrides:
        return config
    rebuilt: Config = build(Config, apply_overrides(to_dict(config), list(overrides)))
    return rebuilt


def _resumed(
    config: Config | str | Path | None,
    folder: Path,
    out: str | Path | None,
    overrides: Sequence[str],
) -> tuple[Config, Path]:
    """The config of the run in `folder` (its config.yaml, then `overrides`), checked against a
    `config` the caller gave too; its metrics.jsonl checked before any model loads."""
    from mars2.training.logger import read_rows

    run = RunDir(folder)
    if not run.config.is_file():
        raise UserError(f"resume={folder}: no config.yaml there; is it a run directory?")
    if out is not None and Path(out).resolve() != folder.resolve():
        raise UserError(f"resume={folder} continues in that run directory; drop out={out}")
    own = load_config(run.config, [*overrides, f"output.out={folder}"])
    if config is not None:
        given = _train_config(config, overrides)
        given = dataclasses.replace(
            given, output=dataclasses.replace(given.output, out=str(folder))
        )
        changed = _differences(to_dict(own), to_dict(given))
        if changed:
            raise UserError(
                f"resume={folder}: the config given differs from the run's config.yaml in "
                f"{', '.join(changed)}; resume with config=None, or change a setting with "
                "overrides=[...]"
            )
    read_rows(run.metrics, warn=False)  # a bad line fails before models load
    return own, run_directory(own, "train")


def _differences(a: Any, b: Any, prefix: str = "") -> list[str]:
    """The dotted keys at which two plain config mappings differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = sorted(set(a) | set(b))
        return [d for k in keys for d in _differences(a.get(k), b.get(k), f"{prefix}{k}.")]
    return [] if a == b else [prefix.rstrip(".")]


def evaluate(
    run: str | Path,
    *,
    step: int | None = None,
    base: bool = False,
    agents: Sequence[str] | None = None,
    overrides: Sequence[str] = (),
    out: str | Path | None = None,
    on_tree: Callable[[Any], None] | None = None,
) -> dict[str, Any]:
    """Evaluate a training run's checkpoint (`step`, default the latest; `base`: the untrained
    agents) with its evaluation protocol: the team, and each agent alone when the run has
    several (`result["alone"]`), or only the `agents` named. Writes eval.json, metrics.json and
    the trees to `out` (default RUN/eval-<checkpoint>) and returns the metrics.json summary.
    `on_tree(result)` is called as each tree finishes (progress). Each evaluation appends one
    line to the folder's environment.jsonl: its wall `seconds` and the machine (mars2.machine)."""
    from mars2 import jsonl, machine
    from mars2.evaluation.run import evaluate_teams, summary
    from mars2.problems import load_problems
    from mars2.training.restore import checkpoint_path, trained_models

    run_dir = Path(run)
    config = load_config(RunDir(run_dir).require_config(), list(overrides))
    names = config.agent_names
    chosen = _chosen(names, agents)
    load_problems(config.eval.problems, limit=config.eval.limit)  # a bad set fails before models
    if base:
        models, label = None, "base"
    else:
        path = checkpoint_path(run_dir, step)
        models, label = trained_models(config, path), path.name
    sub, sub_models = _team_of(config, chosen, models)
    sub_names = [names[i] for i in chosen]
    teams = [list(range(len(chosen)))]
    if agents is None and len(chosen) > 1 and config.eval.each_agent:
        teams += [[j] for j in range(len(chosen))]
    suffix = "" if agents is None else "-" + "-".join(sub_names)
    folder = RunDir(out) if out else RunDir(run_dir).eval_out(f"{label}{suffix}")
    folder.root.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    team_eval, *alone = evaluate_teams(sub, teams, label=label, models=sub_models, on_tree=on_tree)
    team_eval.write(folder.eval_json(), folder.search_trees)
    result = summary(team_eval, sub_names)
    result["out"] = str(folder.root)
    if alone:
        result["alone"] = {}
        for j, evaluation in enumerate(alone):
            name = sub_names[j]
            evaluation.write(folder.eval_json(name), folder.agent_trees(name))
            result["alone"][name] = {
                k: v for k, v in summary(evaluation, [name]).items() if k.startswith("pass@")
            }
    folder.summary.write_text(json.dumps(result, indent=2) + "\n")
    seconds = round(time.perf_counter() - started, 1)
    jsonl.append(folder.environment, [{"seconds": seconds, **machine.facts()}])
    return result


def budget(
    run: str | Path | None = None,
    *,
    config: Config | None = None,
    agents: Sequence[str] | None = None,
    step: int | None = None,
    base: bool = False,
    budgets: Sequence[int] = (4, 8, 16),
    algos: Sequence[str] | None = None,
    overrides: Sequence[str] = (),
    out: str | Path | None = None,
    on_tree: Callable[[Any], None] | None = None,
) -> dict[str, Any]:
    """The equal-budget comparison (`mars2 budget`, docs/search.md): independent sampling vs
    each search algorithm in `algos` (default `search.algo`) at each node budget on
    `eval.problems`; returns the budget.json object (written with budget.png to `out`). The
    team: a run's checkpoint (`run`: a run directory, `step` or `base`, `agents` names some of
    its agents; or a checkpoint folder) with `overrides` on its config, else `config` (default:
    the default config) with `agents` as model names. Tree files: `mars2 budget --trees`."""
    from mars2.evaluation.budget_run import compare_budgets
    from mars2.training.restore import checkpoint_path, trained_models

    if run is None:
        chosen = _with(config, None, agents, algo=None, budget=None, limit=None)
        return compare_budgets(chosen, budgets, algos, out=out, on_tree=on_tree)
    run_dir, path = Path(run), None
    if run_dir.parent.name == "checkpoints":  # a checkpoint folder of a run
        run_dir, path = run_dir.parent.parent, run_dir
    loaded = load_config(RunDir(run_dir).require_config(), list(overrides))
    indices = _chosen(loaded.agent_names, agents)
    models = None if base else trained_models(loaded, path or checkpoint_path(run_dir, step))
    sub, sub_models = _team_of(loaded, indices, models)
    return compare_budgets(sub, budgets, algos, models=sub_models, out=out, on_tree=on_tree)


def _chosen(names: list[str], agents: Sequence[str] | None) -> list[int]:
    """The indices of the `agents` named (all agents when None), checked."""
    if agents is None:
        return list(range(len(names)))
    unknown = [a for a in agents if a not in names]
    if unknown:
        raise UserError(
            f"--agents {', '.join(unknown)}: no such agent in this run; agents: {', '.join(names)}"
        )
    return [names.index(a) for a in agents]


def team_config(config: Config, chosen: Sequence[int]) -> Config:
    """The config of the team of the `chosen` agents only (what `mars2 eval --agents` and an
    experiment's final evaluation of one agent evaluate): an agent chosen without its
    `share_with` partner stands alone in the smaller team."""
    kept = {config.agent_name(i) for i in chosen}
    return dataclasses.replace(
        config,
        agents=tuple(
            config.agents[i]
            if config.agents[i].share_with in (None, *kept)
            else dataclasses.replace(config.agents[i], share_with=None)
            for i in chosen
        ),
    )


def _team_of(
    config: Config, chosen: list[int], models: dict[int, tuple[Any, Any]] | None
) -> tuple[Config, dict[int, tuple[Any, Any]] | None]:
    """The config and checkpoint models of the team of the `chosen` agents only
    (`team_config`): checkpoint weights follow their agent's new index, and an agent chosen
    without its `share_with` partner keeps the partner's weights (`models` maps it to them; the
    base model is the same)."""
    sub = team_config(config, chosen)
    if models is None:
        return sub, None
    return sub, {j: models[i] for j, i in enumerate(chosen) if i in models}


def register_reward(name: str, fn: Callable[..., float] | None = None) -> Any:
    """Add a training reward `fn(record: NodeRecord) -> float` (`credit.reward: NAME`); a
    decorator without `fn`."""
    return REWARDS.register(name, fn)


def register_problem_set(name: str, fn: Callable[[], Any] | None = None) -> Any:
    """Add a problem set `fn() -> Iterable[Problem]` usable wherever a set name is (`data.train`,
    `eval.problems`, `search(NAME, ...)`); a decorator without `fn`."""
    return PROBLEM_SETS.register(name, fn)


def register_backend(name: str, fn: Callable[..., Any] | None = None) -> Any:
    """Add an agent backend `fn(agent: AgentConfig, *, seed: int) -> Policy`
    (`agents.N.backend: NAME`); a decorator without `fn`."""
    return BACKENDS.register(name, fn)


def register_algorithm(name: str, cls: type | None = None) -> Any:
    """Add a search algorithm, a `mars2.treesearch.Algorithm` subclass built as
    `cls(search_config, n_agents)` (`search.algo: NAME`); a decorator without `cls`."""
    return ALGORITHMS.register(name, cls)


def register_loss(name: str, fn: Callable[..., Any] | None = None) -> Any:
    """Add a policy surrogate `fn(logp, old_logp, advantages, mask, clip_low, clip_high) ->
    mars2.rl.losses.Surrogate` (`loss.name: NAME`; docs/algorithms.md); a decorator without `fn`."""
    return LOSSES.register(name, fn)


def register_kl_estimator(name: str, fn: Callable[..., Any] | None = None) -> Any:
    """Add a per-token KL estimator `fn(logp, ref_logp) -> Tensor` (`loss.kl_estimator: NAME`);
    a decorator without `fn`."""
    return KL_ESTIMATORS.register(name, fn)


def register_aggregation(name: str, fn: Callable[..., Any] | None = None) -> Any:
    """Add a loss aggregation `fn(per_token, mask, norm: mars2.rl.aggregate.Normaliser) -> Tensor`
    (`loss.aggregation: NAME`); a decorator without `fn`."""
    return AGGREGATIONS.register(name, fn)
