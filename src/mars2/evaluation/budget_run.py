"""Run the equal-budget comparison: grow the independent attempts and each search algorithm's
trees through `Evaluator` (the evaluation protocol, its cache and checksums), then write
budget.json and budget.png (evaluation/budget.py says what is measured).

Every arm is one evaluation of one tree per problem: the independent arm with `sampling` at the
largest budget, each algorithm at each budget. Problem i's tree is seeded
`seeds.tree(seeds.budget(seed), i)` in every arm (seeds of their own purpose, shared by the
arms). An arm whose evaluation is in the cache is read back, so a repeated command with the
same protocol grows nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mars2 import seeds
from mars2.config import AgentConfig, Config, SearchConfig
from mars2.errors import UserError
from mars2.evaluation import budget
from mars2.evaluation.protocol import search_protocol
from mars2.evaluation.run import Evaluation, Evaluator
from mars2.evaluation.stats import RESAMPLES
from mars2.problems import load_problems
from mars2.registry import ALGORITHMS
from mars2.rollout.orchestrator import Executor, TreeResult
from mars2.treesearch.metrics import by_tree
from mars2.types import Problem

DEFAULT_BUDGETS = (4, 8, 16)


def check_budgets(budgets: Sequence[int]) -> list[int]:
    """The budgets sorted and distinct; UserError unless there is one and each is >= 1."""
    if not budgets:
        raise UserError("--budgets: name at least one budget")
    bad = [b for b in budgets if b < 1]
    if bad:
        raise UserError(f"--budgets: a budget is a number of nodes >= 1, got {bad[0]}")
    return sorted(set(budgets))


def check_algos(algos: Sequence[str]) -> list[str]:
    """The algorithms in order, each once; UserError unless there is one and each is known
    (mars2.registry.ALGORITHMS)."""
    if not algos:
        raise UserError("--algos: name at least one search algorithm")
    known = ALGORITHMS.names()
    unknown = [a for a in algos if a not in known]
    if unknown:
        raise UserError(
            f"--algos: unknown search algorithm {unknown[0]!r}; known: {', '.join(known)}"
        )
    return list(dict.fromkeys(algos))


def arm_searches(
    config: Config, budgets: Sequence[int], algos: Sequence[str]
) -> dict[tuple[str, int], SearchConfig]:
    """{(arm, budget): SearchConfig} of every evaluation the comparison runs."""
    searches = {
        (budget.INDEPENDENT, max(budgets)): dataclasses.replace(
            config.search, algo="sampling", budget=max(budgets)
        )
    }
    for algo in algos:
        for b in budgets:
            searches[(algo, b)] = dataclasses.replace(config.search, algo=algo, budget=b)
    return searches


async def grow_arms(
    config: Config,
    problems: Sequence[Problem],
    budgets: Sequence[int],
    algos: Sequence[str],
    policies: Sequence[Any],
    agents: Sequence[AgentConfig],
    sandbox: Executor,
    on_tree: Callable[[TreeResult], None] | None = None,
) -> dict[tuple[str, int], Evaluation]:
    """Every arm's evaluation (one tree per problem), grown concurrently (the engines batch
    requests of all arms). Arms with the same search (`sampling` at the largest budget is the
    independent arm's) are grown once."""
    one_tree = dataclasses.replace(
        config, eval=dataclasses.replace(config.eval, samples=1, trees=1)
    )
    searches = arm_searches(config, budgets, algos)
    unique = list(dict.fromkeys(searches.values()))
    budget_seed = seeds.budget(config.seed)
    evaluators = [Evaluator(one_tree, search, problems, seed=budget_seed) for search in unique]
    done = await asyncio.gather(
        *(
            evaluator.run(
                policies,
                agents,
                sandbox,
                label=f"budget {search.algo} {search.budget}",
                on_tree=on_tree,
            )
            for search, evaluator in zip(unique, evaluators, strict=True)
        )
    )
    by_search = dict(zip(unique, done, strict=True))
    return {key: by_search[search] for key, search in searches.items()}


def problem_arms(
    evaluations: dict[tuple[str, int], Evaluation],
    problems: Sequence[Problem],
    budgets: Sequence[int],
) -> list[budget.ProblemArms]:
    """The per-problem outcomes of the arms' evaluations, problems in input order."""
    trees: dict[tuple[str, int], dict[str, Any]] = {
        key: {tree[0].problem_id: tree for tree in by_tree(evaluation.records)}
        for key, evaluation in evaluations.items()
    }
    out = []
    for problem in problems:
        arms: dict[str, dict[int, budget.Outcome]] = {}
        for (arm, b), by_problem in trees.items():
            tree = by_problem[problem.id]
            if arm == budget.INDEPENDENT:
                arms[arm] = budget.prefix_outcomes(tree, budgets)
            else:
                arms.setdefault(arm, {})[b] = budget.outcome(tree)
        out.append(budget.ProblemArms(problem.id, arms))
    return out


def comparison_protocol(
    config: Config, reference: dict[str, Any], budgets: Sequence[int], algos: Sequence[str]
) -> dict[str, Any]:
    """The comparison's protocol: an evaluation protocol (problems, limit, sampling, tokens,
    timeouts, engines as resolved) with the search settings besides algo and budget, and the
    budgets and algorithms compared (samples and trees are one per arm and problem)."""
    kept = {k: v for k, v in reference.items() if k not in ("search", "samples", "trees")}
    searched = search_protocol(config.search)
    shared = {f: v for f, v in searched.items() if f not in ("algo", "budget")}
    return {**kept, "search": shared, "budgets": list(budgets), "algos": list(algos)}


def compare_budgets(
    config: Config,
    budgets: Sequence[int] = DEFAULT_BUDGETS,
    algos: Sequence[str] | None = None,
    *,
    models: dict[int, tuple[Any, Any]] | None = None,
    out: str | Path | None = None,
    on_tree: Callable[[TreeResult], None] | None = None,
) -> dict[str, Any]:
    """Run the comparison of `config.agents` on `eval.problems` (first `eval.limit`) and return
    the budget.json object; `out` also writes budget.json and budget.png there. `algos`
    defaults to `[search.algo]`; `models` gives (model, tokenizer) for agents whose weights come
    from a checkpoint."""
    from mars2.rollout.engines import load_policies
    from mars2.sandbox import Sandbox

    budgets = check_budgets(budgets)
    algos = check_algos(algos or [config.search.algo])
    problems = load_problems(config.eval.problems, limit=config.eval.limit)
    policies = load_policies(config.agents, seed=config.seed, models=models)
    try:
        with Sandbox(config.sandbox) as sandbox:
            evaluations = asyncio.run(
                grow_arms(
                    config, problems, budgets, algos, policies, config.agents, sandbox, on_tree
                )
            )
    finally:
        for policy in policies:
            policy.close()
    reference = evaluations[(budget.INDEPENDENT, max(budgets))].eval_json
    record = budget.build(
        protocol=comparison_protocol(config, reference["protocol"], budgets, algos),
        seed=reference["seed"],
        problems_checksum=reference["problems_checksum"],
        team=reference["team"],
        problems=problem_arms(evaluations, problems, budgets),
        budgets=budgets,
        agent_names=config.agent_names,
        resamples=config.eval.bootstrap,
        cached=all(e.cached for e in evaluations.values()),
    )
    if out is not None:
        write(record, Path(out), title=f"{config.eval.problems} ({len(problems)} problems)")
    return record


def write(record: dict[str, Any], out: Path, title: str = "") -> Path:
    """budget.json and budget.png in `out`; returns the budget.json path."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "budget.json"
    tmp = path.with_name(".budget.json.tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)
    budget.plot(record["headline"], out / "budget.png", title)
    return path


def compare_tree_files(
    files: Sequence[str | Path],
    agent_names: Sequence[str] | None = None,
    resamples: int = RESAMPLES,
) -> dict[str, Any]:
    """The comparison's figures of finished trees read from files (trees/*.jsonl of a search,
    an evaluation or training) as one arm, `trees`: per problem the share of its trees whose
    pick passes and with a passing node, and the node rates overall and per agent
    (`agent_names` by agent id; default `agent0`, `agent1`, ...). Trees of different files
    never merge, whatever their tree ids. No protocol: the files do not record one."""
    from mars2.credit.records import read_node_records

    if not files:
        raise UserError("--trees: name at least one tree file")
    records = [
        dataclasses.replace(r, tree_id=f"{i}:{r.tree_id}")
        for i, file in enumerate(files)
        for r in read_node_records(file)
    ]
    if not records:
        raise UserError(f"--trees: no node records in {', '.join(map(str, files))}")
    problems, size = budget.tree_file_arms(records)
    if agent_names is None:
        agent_names = [f"agent{a}" for a in range(max(r.agent_id for r in records) + 1)]
    return budget.build(
        protocol={"trees": [str(f) for f in files]},
        seed=None,
        problems_checksum=None,
        team=[],
        problems=problems,
        budgets=[size],
        agent_names=agent_names,
        resamples=resamples,
    )
