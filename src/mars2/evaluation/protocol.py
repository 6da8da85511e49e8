"""The evaluation protocol as data: one rule for the search of every evaluation, its seed, the
protocol fields that make two evaluations comparable, and checksums of the problem set.

No torch. The protocol is what `mars2 compare` insists on being equal; the team (agents, their
weights' checksums) is what an evaluation measures, so it is recorded beside the protocol.

The protocol's `engines` say how each model generates (backend, device, rollout precision,
decoder, fence stop, the CPU's native bfloat16): `protocol()` records them as configured,
an evaluation (evaluation/run.py) as its engines resolved them. They key the evaluation cache
like every other field, and two evaluations pair only when every model both teams use
generated alike (`differing_fields`); a model only one team has is part of what differs
between the teams, not of the protocol.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from typing import Any

from mars2 import seeds
from mars2.agents.base import ENGINE_FIELDS, EngineSettings
from mars2.config import AgentConfig, Config, SearchConfig
from mars2.types import Problem

# Search settings that change what an evaluation measures (trees_in_flight only changes speed:
# trees are seeded by position and told in ask order).
SEARCH_FIELDS = (
    "algo",
    "budget",
    "prior",
    "agent_selection",
    "min_share",
    "parallel_expansions",
    "virtual_score",
    "width",
)
# The per-tree search (the paper's AB-MCTS-A) in the settings added after it: a protocol names
# one of them only where it differs from this value, so a protocol without them is the per-tree
# search (and keys the cache as before they existed) whatever the defaults are. `forgetting` is
# left out: it weighs pools carried over calls, and an evaluation's trees never read one.
PER_TREE_SEARCH: dict[str, Any] = {
    "pooling": "none",
    "pool_strength": 128.0,
    "pool_lag": 32,
    "refine_solved": True,
    "copies": "run",
}


def eval_search(config: Config) -> SearchConfig:
    """The search of every evaluation (in training and `mars2 eval`), whatever `train.mode`:
    `eval.algo` with `eval.budget` nodes per tree, the other settings from `search`."""
    return dataclasses.replace(config.search, algo=config.eval.algo, budget=config.eval.budget)


def eval_seed(config: Config) -> int:
    """The seed of an evaluation's trees (tree i of the run gets `seeds.tree(eval_seed, i)`)."""
    return seeds.evaluation(config.seed)


def _one_or_all(values: Sequence[Any]) -> Any:
    """One value when the agents agree, else the sorted distinct values."""
    distinct = sorted(set(values))
    return distinct[0] if len(distinct) == 1 else distinct


def protocol(config: Config, search: SearchConfig | None = None) -> dict[str, Any]:
    """The fields two evaluations must share to be compared: problems, limit, samples per
    problem, the search and its budget, sampling (temperature, top-p, token limits of the
    agents) and the sandbox's limits. `search` defaults to `eval_search(config)`."""
    search = search or eval_search(config)
    agents = config.agents
    box = config.sandbox
    return {
        "problems": config.eval.problems,
        "limit": config.eval.limit,
        "samples": config.eval.samples,
        "trees": config.eval.trees or config.eval.samples,
        "search": search_protocol(search),
        "temperature": _one_or_all([a.temperature for a in agents]),
        "top_p": _one_or_all([a.top_p for a in agents]),
        "max_new_tokens": _one_or_all([a.max_new_tokens for a in agents]),
        "max_prompt_tokens": _one_or_all([a.max_prompt_tokens for a in agents]),
        "timeouts": {"timeout_s": box.timeout_s, "cpu_s": box.cpu_s, "memory_mb": box.memory_mb},
        "engines": engines([(a.model, EngineSettings.configured(a).to_json()) for a in agents]),
    }


# Searches of fresh attempts only: no node refines, no prior is taken, so the settings of
# PER_TREE_SEARCH cannot change their trees (one `independent` arm of `mars2 budget` serves a
# per-tree and a pooled search alike).
FRESH_ONLY = ("sampling",)


def search_protocol(search: SearchConfig) -> dict[str, Any]:
    """The protocol's `search`: every SEARCH_FIELDS setting, and those of PER_TREE_SEARCH that
    differ from the per-tree search (none for FRESH_ONLY searches). `pooling: run` is recorded
    as `call`: an evaluation grows its trees in calls of its own and reads no carried pool, so
    the two grow the same trees (docs/search.md, "Pooled priors")."""
    fields = {name: getattr(search, name) for name in SEARCH_FIELDS}
    if search.algo in FRESH_ONLY:
        return fields
    for name, per_tree in PER_TREE_SEARCH.items():
        value = getattr(search, name)
        value = "call" if name == "pooling" and value == "run" else value
        if value != per_tree:
            fields[name] = value
    return fields


def engines(described: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """{model: engine description} over (model, description) pairs; agents of one model that
    generate differently get the sorted distinct values of the fields they differ in."""
    by_model: dict[str, list[dict[str, Any]]] = {}
    for model, description in described:
        by_model.setdefault(model, []).append(description)
    out: dict[str, dict[str, Any]] = {}
    for model, found in sorted(by_model.items()):
        fields: dict[str, Any] = {}
        for name in ENGINE_FIELDS:
            distinct = sorted({repr(d.get(name)): d.get(name) for d in found}.items())
            fields[name] = distinct[0][1] if len(distinct) == 1 else [v for _, v in distinct]
        out[model] = fields
    return out


def team(agents: Sequence[AgentConfig], checksums: Sequence[str]) -> list[dict[str, Any]]:
    """The evaluated agents: name, model, role and a checksum of the weights they generate with."""
    return [
        {
            "name": agent.name or f"agent{i}",
            "model": agent.model,
            "role": agent.role,
            "system_prompt": agent.system_prompt,
            "checksum": checksum,
        }
        for i, (agent, checksum) in enumerate(zip(agents, checksums, strict=True))
    ]


def problems_checksum(problems: Sequence[Problem]) -> str:
    """sha256 of the problems' canonical JSON (statement, tests, ...), in order."""
    text = json.dumps([p.to_json() for p in problems], sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def cache_key(
    proto: dict[str, Any], seed: int, problems_sum: str, members: Sequence[dict[str, Any]]
) -> str | None:
    """The key of a cached evaluation, or None when a weight checksum is not a real one (a
    remote or API model): such an evaluation is never reused."""
    if not all(str(m["checksum"]).startswith("sha256:") for m in members):
        return None
    data = {"protocol": proto, "seed": seed, "problems": problems_sum, "team": list(members)}
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def differing_fields(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Dotted fields (`protocol.…`) where two evaluation protocols differ: every field, the
    engines compared for the models both protocols name (a protocol without engines, written
    before they were recorded, differs in `protocol.engines`)."""
    rest_a = {k: v for k, v in a.items() if k != "engines"}
    rest_b = {k: v for k, v in b.items() if k != "engines"}
    out = differences(rest_a, rest_b, "protocol")
    engines_a, engines_b = a.get("engines"), b.get("engines")
    if engines_a is None or engines_b is None:
        return out + ([] if engines_a is engines_b else ["protocol.engines"])
    for model in sorted(set(engines_a) & set(engines_b)):
        out += differences(engines_a[model], engines_b[model], f"protocol.engines.{model}")
    return out


def differences(a: Any, b: Any, prefix: str = "") -> list[str]:
    """Dotted names of the fields where two protocol mappings differ (a missing field differs)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in sorted(set(a) | set(b), key=str):
            name = f"{prefix}.{key}" if prefix else str(key)
            if key not in a or key not in b:
                out.append(name)
            else:
                out += differences(a[key], b[key], name)
        return out
    return [] if a == b else [prefix or "protocol"]
