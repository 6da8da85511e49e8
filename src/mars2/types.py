"""Plain data shared by every layer: problems, test results, generations, tree nodes, samples.

No behaviour beyond small derived properties and JSON round-trips; no torch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, get_args

TestStyle = Literal["functional", "stdin", "assert"]
TEST_STYLES: tuple[str, ...] = get_args(TestStyle)

Verdict = Literal["pass", "wrong", "error", "timeout", "memory", "output_limit", "infra"]
VERDICTS: tuple[str, ...] = get_args(Verdict)

TestSet = Literal["public", "private", "all"]

RewardKind = str  # a name in mars2.registry.REWARDS: `binary`, `fraction` or a registered one


@dataclass(frozen=True)
class TestCase:
    """One test. `functional`: `input` is a list of positional arguments, `output` a JSON value.
    `stdin`: `input` and `output` are strings. `assert`: `test` is a Python program run after the
    candidate (e.g. HumanEval's `check(candidate)`); passing means it exits cleanly."""

    __test__ = False  # not a pytest class

    input: Any = None
    output: Any = None
    test: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.test is not None:
            return {"test": self.test}
        return {"input": self.input, "output": self.output}


@dataclass(frozen=True)
class Problem:
    """A programming problem (docs/problems.md). Public tests steer the search and appear in
    refinement feedback; private (hidden) tests only score."""

    id: str
    statement: str
    test_style: TestStyle
    public_tests: tuple[TestCase, ...]
    private_tests: tuple[TestCase, ...] = ()
    starter_code: str = ""
    fn_name: str | None = None
    solution: str | None = None
    difficulty: str | None = None
    source: str = ""
    split: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def tests(self, which: TestSet = "all") -> tuple[TestCase, ...]:
        """The public, the private (hidden) or all tests. A problem without private tests is
        judged on its public ones when `private` is asked for."""
        if which == "public":
            return self.public_tests
        if which == "private":
            return self.private_tests or self.public_tests
        return self.public_tests + self.private_tests

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "id": self.id,
            "statement": self.statement,
            "starter_code": self.starter_code,
            "test_style": self.test_style,
            "fn_name": self.fn_name,
            "public_tests": [t.to_json() for t in self.public_tests],
            "private_tests": [t.to_json() for t in self.private_tests],
            "solution": self.solution,
            "difficulty": self.difficulty,
            "source": self.source,
            "split": self.split,
        }
        if self.metadata:
            record["metadata"] = dict(self.metadata)
        return record


@dataclass(frozen=True)
class TestResult:
    """The verdict on one test. `detail` holds what a refinement prompt may show: for `wrong`
    the actual output, for `error` the traceback tail (both truncated)."""

    __test__ = False

    verdict: Verdict
    time_s: float = 0.0
    detail: str = ""

    @property
    def passed(self) -> bool:
        return self.verdict == "pass"


@dataclass(frozen=True)
class ExecResult:
    """The outcome of running one candidate against a list of tests."""

    tests: tuple[TestResult, ...]
    feedback: str = ""

    @property
    def passed(self) -> bool:
        """True when there was at least one test and every test passed."""
        return bool(self.tests) and all(t.passed for t in self.tests)

    @property
    def pass_fraction(self) -> float:
        if not self.tests:
            return 0.0
        return sum(t.passed for t in self.tests) / len(self.tests)

    @property
    def n_infra(self) -> int:
        return sum(t.verdict == "infra" for t in self.tests)

    def to_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "pass_fraction": self.pass_fraction,
            "tests": [asdict(t) for t in self.tests],
            "feedback": self.feedback,
        }


@dataclass(frozen=True)
class Completion:
    """One generation from a policy: the text, the token ids and the log-probs of the sampled
    tokens under the sampling distribution (needed for truncated importance sampling)."""

    text: str
    prompt_ids: tuple[int, ...] = ()
    response_ids: tuple[int, ...] = ()
    logprobs: tuple[float, ...] = ()
    finish_reason: Literal["stop", "length"] = "stop"

    @property
    def response_len(self) -> int:
        return len(self.response_ids)


@dataclass(frozen=True)
class NodeRecord:
    """One line of `trees/*.jsonl` (docs/training.md, "Run directory"). `parent_id` is None for a child of the root.
    `score` is the fraction of public tests passed (it steers the search and is all a prompt
    shows), `passed` whether the candidate passes every test (public and hidden),
    `pass_fraction` the share of all tests it passes, `reward` the raw training reward as
    configured (`credit.raw_reward`), `truncated` whether the response hit `max_new_tokens`,
    `version` how many updates the writing agent's weights had taken when it wrote the node.
    `pass_fraction` is None in records written before it existed (`version`: 0). `copy_of`: the
    parent whose program this refinement reproduces, when the search skipped running it
    (`search.copies: skip`; its verdicts are the parent's)."""

    tree_id: str
    problem_id: str
    node_id: int
    parent_id: int | None
    depth: int
    agent_id: int
    score: float
    reward: float
    passed: bool
    response_len: int = 0
    code: str = ""
    feedback: str = ""
    pass_fraction: float | None = None
    truncated: bool = False
    version: int = 0
    copy_of: int | None = None

    @property
    def public_only_pass(self) -> bool:
        """Passes every public test but fails a hidden one: what a candidate that games the
        public tests (hard-coded outputs, stubs) looks like."""
        return self.score >= 1.0 and not self.passed

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> NodeRecord:
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in record.items() if k in known})


@dataclass
class Sample:
    """One training sample: a node (or an independent sample) that agent `agent_id` wrote,
    with its tokens, the rollout engine's log-probs and its advantage; `version`: how many
    updates the writer's weights had taken when it generated the tokens."""

    agent_id: int
    prompt_ids: list[int]
    response_ids: list[int]
    rollout_logprobs: list[float]
    advantage: float
    reward: float = 0.0
    group: str = ""
    version: int = 0
