"""Registries for the extension points: reward functions, problem sets, agent backends, search
algorithms, policy losses, KL estimators and loss aggregations, each a name -> object table.

Built-in entries are dotted paths (`module:attribute`) imported on first use, so this module imports
nothing of mars2 beyond its errors and a config can check a name without loading torch. Users add
entries from Python (`@mars2.register_reward("mine")`, docs/api.md); config fields also accept a
dotted path `package.module:attribute` to an importable object, checked when the config loads.
Nothing is ever loaded from a file path.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from mars2.errors import UserError

T = TypeVar("T")


class Registry(Generic[T]):
    """Names of one kind of extension (`what`, e.g. "reward") to objects."""

    def __init__(self, what: str, builtins: dict[str, str]) -> None:
        self.what = what
        self._paths = dict(builtins)
        self._objects: dict[str, T] = {}

    def register(self, name: str, obj: T | None = None) -> Any:
        """Add `obj` under `name`; without `obj`, a decorator. A built-in name cannot be replaced."""
        if name in self._paths:
            raise UserError(f"{self.what} {name!r} is built in; register yours under another name")
        if ":" in name or not name:
            raise UserError(f"{self.what} name {name!r}: use a plain name (no ':')")

        def add(value: T) -> T:
            self._objects[name] = value
            return value

        return add if obj is None else add(obj)

    def unregister(self, name: str) -> None:
        """Remove a user entry (tests, notebooks)."""
        self._objects.pop(name, None)

    def names(self) -> list[str]:
        return sorted({*self._paths, *self._objects})

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self._paths or name in self._objects)

    def check(self, name: str) -> str | None:
        """None when `name` resolves (a known name, or an importable `module:attribute`), else
        what is wrong, naming the known entries."""
        if name in self:
            return None
        if ":" in name:
            try:
                _import(name)
            except UserError as err:
                return str(err)
            return None
        close = difflib.get_close_matches(name, self.names(), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return (
            f"unknown {self.what}{hint}; known: {', '.join(self.names())}, or a dotted path "
            "`package.module:attribute` (register your own: docs/api.md)"
        )

    def get(self, name: str) -> T:
        """The object registered as `name` (importing a built-in or a dotted path on first use)."""
        if name in self._objects:
            return self._objects[name]
        problem = self.check(name)
        if problem is not None:
            raise UserError(f"{self.what} {name!r}: {problem}")
        value: T = _import(self._paths.get(name, name))
        self._objects[name] = value
        return value


def _import(path: str) -> Any:
    module, _, attribute = path.partition(":")
    try:
        return getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as err:
        raise UserError(f"cannot import {path!r}: {err}") from None


RewardFn = Callable[..., float]

REWARDS: Registry[RewardFn] = Registry(
    "reward",
    {
        "binary": "mars2.credit.rewards:binary_reward",
        "fraction": "mars2.credit.rewards:fraction_reward",
    },
)
"""`fn(record: NodeRecord) -> float`, the raw training reward of a node (`credit.reward`). The
record's `reward` field is not set yet; `passed` and `pass_fraction` count every test, `score`
only the public ones (a reward that reads it can be gamed through the refinement feedback)."""

PROBLEM_SETS: Registry[Callable[[], Any]] = Registry("problem set", {})
"""`fn() -> Iterable[Problem]`: a named problem set (`data.train`, `eval.problems`, `--problems`);
the spec's options (`?split=...&limit=...`) apply to it as to the built-in sets."""

BACKENDS: Registry[Callable[..., Any]] = Registry(
    "agent backend",
    {
        "hf": "mars2.agents.backends:hf_policy",
        "vllm": "mars2.agents.backends:vllm_policy",
        "openai": "mars2.agents.backends:openai_policy",
    },
)
"""`fn(agent: AgentConfig, *, seed: int) -> Policy` (`agents.N.backend`). Built-ins also take
`model=` / `tokenizer=` to share an in-process model (hf)."""

ALGORITHMS: Registry[type] = Registry(
    "search algorithm",
    {
        "abmcts": "mars2.treesearch.abmcts:ABMCTS",
        "sampling": "mars2.treesearch.baselines:Sampling",
        "refine": "mars2.treesearch.baselines:Refine",
        "best_first": "mars2.treesearch.baselines:BestFirst",
    },
)
"""A `mars2.treesearch.Algorithm` subclass, constructed as `cls(search_config, n_agents)`
(`search.algo`, `eval.algo`)."""

LOSSES: Registry[Callable[..., Any]] = Registry(
    "loss",
    {"grpo": "mars2.rl.losses:grpo_surrogate", "gspo": "mars2.rl.losses:gspo_surrogate"},
)
"""A policy surrogate `fn(logp, old_logp, advantages, mask, clip_low, clip_high) -> Surrogate`
(`mars2.rl.losses.Surrogate`: per-token loss [B, T] before TIS and KL, the ratio and where the clip
was active), over response tokens [B, T] and advantages [B] (`loss.name`)."""

KL_ESTIMATORS: Registry[Callable[..., Any]] = Registry(
    "KL estimator",
    {"k1": "mars2.rl.kl:kl_k1", "k2": "mars2.rl.kl:kl_k2", "k3": "mars2.rl.kl:kl_k3"},
)
"""`fn(logp, ref_logp) -> Tensor`: the per-token estimate [B, T] of KL(π_θ ‖ π_ref) from the
sampled tokens' log-probs (`loss.kl_estimator`)."""

AGGREGATIONS: Registry[Callable[..., Any]] = Registry(
    "aggregation",
    {
        "token-mean": "mars2.rl.aggregate:token_mean",
        "seq-mean-token-mean": "mars2.rl.aggregate:seq_mean_token_mean",
        "seq-mean-token-sum-norm": "mars2.rl.aggregate:seq_mean_token_sum_norm",
    },
)
"""`fn(per_token, mask, norm: mars2.rl.aggregate.Normaliser) -> Tensor`: one scalar from per-token
losses [B, T]; divide by the whole batch's sizes in `norm` so micro-batches add up to the batch
(`loss.aggregation`)."""
