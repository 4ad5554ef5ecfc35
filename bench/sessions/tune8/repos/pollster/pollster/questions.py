"""Questions and surveys.

A survey is an ordered list of questions. Each question has a stable id (used as the CSV
column and as the key in a response), a kind, and kind-specific settings: the choices of a
single/multi/ranked question, the bounds of a scale.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class QuestionKind(str, Enum):
    SINGLE = "single"
    MULTI = "multi"
    RANKED = "ranked"
    SCALE = "scale"
    TEXT = "text"


@dataclass(frozen=True)
class Question:
    id: str
    prompt: str
    kind: QuestionKind
    choices: tuple[str, ...] = ()
    required: bool = True
    scale_min: int = 1
    scale_max: int = 5
    max_length: int = 2000

    def __post_init__(self) -> None:
        if not self.id or not self.id.replace("_", "").isalnum():
            raise ValueError(f"question id must be alphanumeric/underscore: {self.id!r}")
        if self.kind in (QuestionKind.SINGLE, QuestionKind.MULTI, QuestionKind.RANKED) and len(self.choices) < 2:
            raise ValueError(f"{self.id}: a {self.kind.value} question needs at least two choices")
        if len(set(self.choices)) != len(self.choices):
            raise ValueError(f"{self.id}: duplicate choices")
        if self.kind is QuestionKind.SCALE and self.scale_min >= self.scale_max:
            raise ValueError(f"{self.id}: scale_min must be below scale_max")


@dataclass
class Survey:
    id: str
    title: str
    qs: list[Question] = field(default_factory=list)
    open: bool = True

    def add(self, question: Question) -> Question:
        if any(q.id == question.id for q in self.qs):
            raise ValueError(f"duplicate question id {question.id!r} in survey {self.id}")
        self.qs.append(question)
        return question

    def get(self, question_id: str) -> Question:
        for q in self.qs:
            if q.id == question_id:
                return q
        raise KeyError(question_id)

    def question_ids(self) -> list[str]:
        return [q.id for q in self.qs]

    def close(self) -> None:
        self.open = False
