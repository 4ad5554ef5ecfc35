"""An in-memory response store (the service wraps it in a database-backed one with the same API)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any


@dataclass
class StoredResponse:
    survey_id: str
    respondent: str
    answers: dict[str, Any]
    meta: dict[str, Any]
    submitted_at: str


@dataclass
class ResponseStore:
    rows: list[StoredResponse] = field(default_factory=list)

    def add(self, survey_id: str, respondent: str, answers: dict[str, Any],
            meta: dict[str, Any] | None = None) -> StoredResponse:
        row = StoredResponse(survey_id, respondent, answers, meta or {},
                             datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
        self.rows.append(row)
        return row

    def for_survey(self, survey_id: str) -> list[StoredResponse]:
        return [r for r in self.rows if r.survey_id == survey_id]

    def has_responded(self, survey_id: str, respondent: str) -> bool:
        return any(r.survey_id == survey_id and r.respondent == respondent for r in self.rows)

    def update(self, survey_id: str, respondent: str, answers: dict[str, Any]) -> StoredResponse:
        for r in self.rows:
            if r.survey_id == survey_id and r.respondent == respondent:
                r.answers = answers
                return r
        raise KeyError((survey_id, respondent))

    def count(self, survey_id: str) -> int:
        return len(self.for_survey(survey_id))
