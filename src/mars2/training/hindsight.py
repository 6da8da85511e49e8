"""Hindsight repair pairs: refinement prompts of failed nodes -> a passing program of the same tree.

A pair is what one agent would have been asked to refine a failed node (the prompt
`agents.prompts.refine_messages` renders for that agent's role, with the node's program and its
real public-test feedback) and, as the answer to learn, the closest passing program of the same
tree or group (`credit.hindsight.repair_cases`) in the answer format the prompt asks for (one
```python block). Only training problems: a tree of a problem outside the training set, or of
an evaluation problem, is an error. Pairs are deduplicated per agent (one prompt and target
once). docs/training.md, "Hindsight repair pairs".
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mars2 import jsonl
from mars2.agents.prompts import refine_messages
from mars2.config import AgentConfig
from mars2.credit.hindsight import RepairCase, repair_cases
from mars2.credit.records import read_node_records
from mars2.errors import UserError
from mars2.rundir import RunDir
from mars2.types import NodeRecord, Problem, Sample


@dataclass(frozen=True)
class RepairPair:
    """Agent `agent`'s refinement prompt (`messages`) of failed node `node_id` of tree `tree_id`,
    and the response to learn (`target`: passing node `target_node_id`'s program, fenced)."""

    agent: str
    problem_id: str
    tree_id: str
    node_id: int
    target_node_id: int
    similarity: float
    messages: tuple[dict[str, str], ...]
    target: str

    def key(self) -> str:
        """What makes two pairs one: the agent, the prompt and the target."""
        return json.dumps([self.agent, list(self.messages), self.target])

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "problem_id": self.problem_id,
            "tree_id": self.tree_id,
            "node_id": self.node_id,
            "target_node_id": self.target_node_id,
            "similarity": self.similarity,
            "messages": list(self.messages),
            "target": self.target,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RepairPair:
        return cls(
            agent=str(data["agent"]),
            problem_id=str(data["problem_id"]),
            tree_id=str(data["tree_id"]),
            node_id=int(data["node_id"]),
            target_node_id=int(data["target_node_id"]),
            similarity=float(data["similarity"]),
            messages=tuple(dict(m) for m in data["messages"]),
            target=str(data["target"]),
        )


def answer_text(code: str) -> str:
    """A program as the answer a prompt asks for: one ```python block (where a response that
    stops at the closing fence, `agents.N.stop_at_fence`, ends)."""
    return "```python\n" + code.strip("\n") + "\n```"


def training_problem(
    case: RepairCase,
    problems: Mapping[str, Problem],
    split: str | None,
    evaluation: Collection[str],
) -> Problem:
    """The training problem of `case`; a UserError when it is not one (no pair ever comes from
    an evaluation problem)."""
    if case.problem_id in evaluation:
        raise UserError(
            f"tree {case.tree_id}: problem {case.problem_id!r} is an evaluation problem "
            "(eval.problems); repair pairs come from training problems only"
        )
    problem = problems.get(case.problem_id)
    if problem is None:
        raise UserError(
            f"tree {case.tree_id}: problem {case.problem_id!r} is not in the training set "
            "(data.train, data.train_split); repair pairs come from training problems only"
        )
    assert split is None or problem.split == split, (problem.id, problem.split, split)
    return problem


def build_pairs(
    cases: Iterable[RepairCase],
    problems: Mapping[str, Problem],
    agents: Sequence[AgentConfig],
    *,
    split: str | None,
    evaluation: Collection[str] = (),
) -> list[RepairPair]:
    """For every case and agent, the agent's refinement prompt of the failed node -> the passing
    program; each (agent, prompt, target) once, in case order then agent order."""
    pairs: dict[str, RepairPair] = {}
    for case in cases:
        problem = training_problem(case, problems, split, evaluation)
        for agent in agents:
            messages = refine_messages(
                problem,
                case.code,
                case.feedback,
                agent.role,
                agent.system_prompt,
                passes_public=case.passes_public,
            )
            pair = RepairPair(
                agent=agent.name,
                problem_id=case.problem_id,
                tree_id=case.tree_id,
                node_id=case.node_id,
                target_node_id=case.target_node_id,
                similarity=case.similarity,
                messages=tuple(messages),
                target=answer_text(case.target),
            )
            pairs.setdefault(pair.key(), pair)
    return list(pairs.values())


def step_pairs(
    records: Iterable[NodeRecord],
    problems: Mapping[str, Problem],
    agents: Sequence[AgentConfig],
    *,
    split: str | None,
    evaluation: Collection[str] = (),
) -> list[RepairPair]:
    """The repair pairs of finished trees' node records (a training step's trees)."""
    return build_pairs(repair_cases(records), problems, agents, split=split, evaluation=evaluation)


def for_agents(pairs: Iterable[RepairPair], names: Collection[str]) -> list[RepairPair]:
    """The pairs of the named agents (those training one set of weights), each prompt and
    target once: two agents of one role render the same prompt."""
    out: dict[str, RepairPair] = {}
    for pair in pairs:
        if pair.agent in names:
            out.setdefault(json.dumps([list(pair.messages), pair.target]), pair)
    return list(out.values())


def tree_files(sources: Sequence[str | Path]) -> list[Path]:
    """The tree files named by `sources`: a file as it is; a run or search directory as its
    trees/*.jsonl (a training run's trees of every step, a search's trees/search.jsonl)."""
    files: list[Path] = []
    for source in map(Path, sources):
        if source.is_dir():
            found = RunDir(source).tree_files()
            if not found:
                raise UserError(f"{source}: no trees/*.jsonl there; name a run or tree files")
            files += found
        elif source.is_file():
            files.append(source)
        else:
            raise UserError(f"{source}: no such tree file or run directory")
    return files


def read_trees(sources: Sequence[str | Path]) -> list[NodeRecord]:
    """Every node record of the sources' tree files (`tree_files`), each tree id prefixed with
    its file's index: trees of two files (steps, runs) never merge."""
    import dataclasses

    return [
        dataclasses.replace(record, tree_id=f"{index}:{record.tree_id}")
        for index, file in enumerate(tree_files(sources))
        for record in read_node_records(file)
    ]


def write_pairs(path: Path, pairs: Sequence[RepairPair]) -> None:
    jsonl.write(path, [p.to_json() for p in pairs])


def read_pairs(path: Path) -> list[RepairPair]:
    return [RepairPair.from_json(data) for _, data in jsonl.read(path)]


def repair_samples(
    pairs: Sequence[RepairPair], tokenizer: Any, agent_id: int, max_prompt_tokens: int
) -> list[Sample]:
    """The pairs as token ids, laid out like training samples: the prompt rendered as the engine
    renders it (`agents.base.encode_chat`, the chat template), the target's tokens as the
    response. Advantage and rollout log-probs are zeros: the supervised loss reads neither."""
    from mars2.agents.base import encode_chat

    out = []
    for pair in pairs:
        prompt = encode_chat(tokenizer, list(pair.messages), max_prompt_tokens)
        target = list(tokenizer(pair.target, add_special_tokens=False)["input_ids"])
        out.append(
            Sample(
                agent_id=agent_id,
                prompt_ids=prompt,
                response_ids=target,
                rollout_logprobs=[0.0] * len(target),
                advantage=0.0,
                group=pair.tree_id,
            )
        )
    return out
