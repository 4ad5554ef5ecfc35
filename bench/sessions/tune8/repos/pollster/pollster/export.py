"""CSV export of a survey's responses: one row per respondent, one column per question."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from pollster.questions import Survey
from pollster.store import StoredResponse


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return str(value)


def rows(survey: Survey, responses: list[StoredResponse]) -> list[list[str]]:
    header = ["respondent", "submitted_at", *survey.question_ids()]
    out = [header]
    for r in responses:
        out.append([r.respondent, r.submitted_at, *(_cell(r.answers.get(q)) for q in survey.question_ids())])
    return out


def to_csv(survey: Survey, responses: list[StoredResponse]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerows(rows(survey, responses))
    return buf.getvalue()


def write_csv(path: Path, survey: Survey, responses: list[StoredResponse]) -> None:
    path.write_text(to_csv(survey, responses), encoding="utf-8")
