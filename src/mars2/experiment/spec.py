"""The experiment file: arms x seeds of training runs on one evaluation protocol, read and checked.

    base: main.yaml            # optional config file of every arm (relative to this file);
                               # omitted: the defaults, i.e. the main job of `mars2 train`
    config: {eval: {limit: 30}}  # optional inline config sections applied to every arm
    set: [train.steps=8]       # key=value overrides for every arm
    seeds: [0, 1, 2]
    reference: grpo            # paired differences are against this arm
    allow_protocol_differences: [protocol.search.agent_selection]   # optional, on purpose only
    arms:
      base: {team: [smollm2-135m], eval_only: true}   # the untrained team: one evaluation
      grpo: {team: [smollm2-135m], set: [train.mode=grpo]}
      hetero: {team: [smollm2-135m, gemma3-270m], set: [train.micro_batch_size=2]}
    quick: {set: [train.steps=1], seeds: [0]}       # what --quick changes
    final_evals:               # optional: more evaluations of every run's final weights
      alone: {each_agent: true, set: [eval.budget=1]}   # each agent of the team alone
      mcts-16: {set: [eval.budget=16, eval.limit=100], seeds: [0]}  # the team, another protocol,
                                                    # the seed-0 runs only

An arm's config is built in this order, later wins: defaults, the file `base` (the arm's own
`base` replaces the experiment's), `config`, `set`, the arm's `team`, its `config`, its `set`,
then with --quick `quick.set`, then `seed=<k>` and `output.out=<run dir>`. A final evaluation's
`set` holds `eval.*` keys only, applied to the finished run's config (with --quick, the `eval.*`
keys of `quick.set` after it: a quick check stays quick). `team` lists models
(or agent mappings): each agent copies the settings of the base's first agent (sampling, token
limits, LoRA, dtype) with its own model, named and given roles as `mars2.agents_for` does
(coder, debugger, coder-2, ...). No torch.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mars2.config import Config, load_config, load_yaml, to_dict
from mars2.errors import UserError
from mars2.rundir import is_step_folder

TOP_KEYS = (
    "description",
    "base",
    "config",
    "set",
    "seeds",
    "reference",
    "allow_protocol_differences",
    "arms",
    "quick",
    "final_evals",
)
ARM_KEYS = ("description", "base", "team", "config", "set", "eval_only")
QUICK_KEYS = ("set", "seeds")
FINAL_KEYS = ("each_agent", "set", "seeds")
ARM_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class Arm:
    """One arm: a config (file + overrides, in order) trained, or only evaluated, per seed."""

    name: str
    base: Path | None
    overrides: tuple[str, ...]
    eval_only: bool = False
    description: str = ""


@dataclass(frozen=True)
class FinalEval:
    """An evaluation of every run's final weights after the run (`final_evals.<name>`): the
    team's, or with `each_agent` one per agent alone, with `eval.*` overrides of the protocol;
    `seeds` limits it to the runs of those seeds (e.g. a costly secondary evaluation)."""

    name: str
    overrides: tuple[str, ...] = ()
    each_agent: bool = False
    seeds: tuple[int, ...] | None = None  # the runs of these seeds only (None: every run)


@dataclass(frozen=True)
class Experiment:
    """A parsed, checked experiment file (`quick`: with its quick section applied)."""

    path: Path
    arms: tuple[Arm, ...]
    seeds: tuple[int, ...]
    reference: str
    allowed_differences: tuple[str, ...] = ()
    description: str = ""
    quick: bool = False
    final_evals: tuple[FinalEval, ...] = ()

    @property
    def name(self) -> str:
        return self.path.stem + ("-quick" if self.quick else "")

    def arm(self, name: str) -> Arm:
        for arm in self.arms:
            if arm.name == name:
                return arm
        raise KeyError(name)

    def config_for(self, arm: Arm, seed: int, out: Path | str | None = None) -> Config:
        """The resolved config of `arm` at `seed` (run directory `out`), errors naming the arm."""
        extra = [f"seed={seed}"] + ([f"output.out={out}"] if out is not None else [])
        return _load(self.path, f"arms.{arm.name}", arm.base, [*arm.overrides, *extra])


def _fail(path: Path, field: str, message: str) -> UserError:
    return UserError(f"{path}: {field}: {message}")


def _unknown(path: Path, where: str, data: Mapping[Any, Any], known: Sequence[str]) -> None:
    for key in data:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""
            field = f"{where}.{key}" if where else str(key)
            raise _fail(path, field, f"unknown key; {hint}known: {', '.join(known)}")


def _mapping(path: Path, field: str, value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _fail(path, field, f"expected a mapping, got {type(value).__name__} {value!r}")
    return value


def _strings(path: Path, field: str, value: Any, *, overrides: bool = False) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(path, field, f"expected a list of strings, got {value!r}")
    for i, item in enumerate(value):
        if overrides and "=" not in item:
            raise _fail(path, f"{field}[{i}]", f"{item!r} is not key=value (e.g. train.steps=8)")
    return list(value)


def _seeds(path: Path, field: str, value: Any) -> tuple[int, ...]:
    ok = isinstance(value, list) and value
    if not ok or not all(isinstance(s, int) and not isinstance(s, bool) for s in value):
        raise _fail(path, field, f"expected a non-empty list of integers, got {value!r}")
    if len(set(value)) < len(value):
        raise _fail(path, field, f"seeds repeat: {value!r}")
    return tuple(value)


def _file(path: Path, field: str, value: Any) -> Path | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _fail(path, field, f"expected a config file path, got {value!r}")
    file = path.parent / value
    if not file.is_file():
        raise _fail(path, field, f"config file {file} not found (paths are relative to {path})")
    return file


def flatten(data: Mapping[str, Any], prefix: str = "") -> list[str]:
    """Inline config sections as `key=value` overrides (values as JSON, which YAML reads)."""
    out: list[str] = []
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out += flatten(value, f"{name}.")
        else:
            out.append(f"{name}={json.dumps(value)}")
    return out


def _load(path: Path, field: str, base: Path | None, overrides: list[str]) -> Config:
    try:
        return load_config(base, overrides)
    except UserError as err:  # ConfigError included
        raise _fail(path, field, str(err)) from None


def _team(path: Path, field: str, value: Any, template: dict[str, Any]) -> str:
    """`agents=[...]`: one agent per model name or mapping, each a copy of `template`."""
    from mars2.api import agents_for

    if not isinstance(value, list) or not value:
        raise _fail(path, field, f"expected a non-empty list of models, got {value!r}")
    specs: list[dict[str, Any]] = []
    for i, item in enumerate(value):
        if isinstance(item, str):
            specs.append({"model": item})
        elif isinstance(item, dict):
            specs.append(dict(item))
        else:
            raise _fail(path, f"{field}[{i}]", f"expected a model name or a mapping, got {item!r}")
    named = agents_for([str(s.get("model", template["model"])) for s in specs])
    common = {k: v for k, v in template.items() if k not in ("name", "role", "share_with")}
    agents = [
        {**common, "name": a.name, "role": a.role, **spec}
        for a, spec in zip(named, specs, strict=True)
    ]
    return f"agents={json.dumps(agents)}"


def _arm(
    path: Path,
    name: Any,
    data: Any,
    base: Path | None,
    common: list[str],
    quick: list[str],
) -> Arm:
    field = f"arms.{name}"
    if not isinstance(name, str) or not ARM_NAME.match(name):
        raise _fail(path, field, "an arm name is letters, digits, '_', '.', '-' (a folder name)")
    data = _mapping(path, field, data)
    _unknown(path, field, data, ARM_KEYS)
    arm_base = _file(path, f"{field}.base", data.get("base")) or base
    eval_only = data.get("eval_only", False)
    if not isinstance(eval_only, bool):
        raise _fail(path, f"{field}.eval_only", f"expected true or false, got {eval_only!r}")
    description = data.get("description") or ""
    overrides = list(common)
    if "team" in data:
        template = to_dict(_load(path, field, arm_base, overrides).agents[0])
        overrides.append(_team(path, f"{field}.team", data["team"], template))
    overrides += flatten(_mapping(path, f"{field}.config", data.get("config")))
    overrides += _strings(path, f"{field}.set", data.get("set"), overrides=True)
    arm = Arm(name, arm_base, tuple(overrides + quick), eval_only, str(description))
    _load(path, field, arm.base, list(arm.overrides))  # every arm's config checked up front
    return arm


def _final_eval(
    path: Path,
    name: Any,
    data: Any,
    base: Path | None,
    common: list[str],
    quick: list[str],
) -> FinalEval:
    """One `final_evals` entry, checked: a wrong override is named by its index (`set[i]`)."""
    field = f"final_evals.{name}"
    if not isinstance(name, str) or not ARM_NAME.match(name) or is_step_folder(name):
        raise _fail(
            path,
            field,
            "a final evaluation's name is letters, digits, '_', '.', '-' (a folder name under "
            "the run's evals/), not starting with 'step_'",
        )
    data = _mapping(path, field, data)
    _unknown(path, field, data, FINAL_KEYS)
    each_agent = data.get("each_agent", False)
    if not isinstance(each_agent, bool):
        raise _fail(path, f"{field}.each_agent", f"expected true or false, got {each_agent!r}")
    overrides = _strings(path, f"{field}.set", data.get("set"), overrides=True)
    for i, item in enumerate(overrides):
        key = item.split("=", 1)[0].strip()
        where = f"{field}.set[{i}]"
        if not key.startswith("eval."):
            raise _fail(
                path,
                where,
                f"{item!r}: only eval.* keys may be set here (the evaluation protocol; the run "
                "itself is the arm's)",
            )
        if key == "eval.each_agent":
            raise _fail(path, where, f"{item!r}: write `each_agent: true` beside `set:` instead")
    try:
        _load(path, f"{field}.set", base, [*common, *overrides])
    except UserError:
        for i, item in enumerate(overrides):  # name the override that fails on its own
            _load(path, f"{field}.set[{i}]", base, [*common, item])
        raise
    seeds = _seeds(path, f"{field}.seeds", data["seeds"]) if "seeds" in data else None
    return FinalEval(
        name, tuple(overrides + [q for q in quick if q.startswith("eval.")]), each_agent, seeds
    )


def load_experiment(path: str | Path, *, quick: bool = False) -> Experiment:
    """Read and check an experiment file (with its `quick` section applied when `quick`); every
    arm's config is resolved once, so a bad key fails here, naming the file and the arm."""
    file = Path(path)
    data = load_yaml(file)
    _unknown(file, "", data, TOP_KEYS)
    base = _file(file, "base", data.get("base"))
    common = flatten(_mapping(file, "config", data.get("config")))
    _load(file, "config", base, common)
    common += _strings(file, "set", data.get("set"), overrides=True)
    _load(file, "set", base, common)
    if "seeds" not in data:
        raise _fail(file, "seeds", "missing; e.g. seeds: [0, 1, 2]")
    seeds = _seeds(file, "seeds", data["seeds"])
    quick_data = _mapping(file, "quick", data.get("quick"))
    _unknown(file, "quick", quick_data, QUICK_KEYS)
    quick_set: list[str] = []
    if quick:
        if "quick" not in data:
            raise _fail(file, "quick", "--quick needs a quick: section (set:, seeds:)")
        quick_set = _strings(file, "quick.set", quick_data.get("set"), overrides=True)
        if "seeds" in quick_data:
            seeds = _seeds(file, "quick.seeds", quick_data["seeds"])
    arms_data = _mapping(file, "arms", data.get("arms"))
    if not arms_data:
        raise _fail(file, "arms", "missing or empty; name at least one arm")
    arms = tuple(_arm(file, n, a, base, common, quick_set) for n, a in arms_data.items())
    names = [a.name for a in arms]
    reference = data.get("reference")
    if reference not in names:
        close = difflib.get_close_matches(str(reference), names, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        raise _fail(
            file, "reference", f"{reference!r} is not an arm; {hint}arms: {', '.join(names)}"
        )
    allowed = _strings(file, "allow_protocol_differences", data.get("allow_protocol_differences"))
    finals_data = _mapping(file, "final_evals", data.get("final_evals"))
    finals = tuple(_final_eval(file, n, f, base, common, quick_set) for n, f in finals_data.items())
    for final in finals:  # each arm's config with the overrides (e.g. eval.trees <= samples)
        for arm in arms:
            field = f"final_evals.{final.name} (arm {arm.name})"
            _load(file, field, arm.base, [*arm.overrides, *final.overrides])
    return Experiment(
        path=file,
        arms=arms,
        seeds=seeds,
        reference=str(reference),
        allowed_differences=tuple(allowed),
        description=str(data.get("description") or ""),
        quick=quick,
        final_evals=finals,
    )


def with_arms(experiment: Experiment, names: Sequence[str]) -> tuple[Arm, ...]:
    """The arms named (`--only`), in the file's order; an unknown name is a UserError."""
    known = [a.name for a in experiment.arms]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UserError(f"--only {', '.join(unknown)}: no such arm; arms: {', '.join(known)}")
    return tuple(a for a in experiment.arms if a.name in names)


__all__ = ["Arm", "Experiment", "FinalEval", "flatten", "load_experiment", "with_arms"]
