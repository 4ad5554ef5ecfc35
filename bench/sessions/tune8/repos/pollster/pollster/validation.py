"""Answer validation: one function per question kind, each returning a list of error strings."""

from __future__ import annotations

from typing import Any

from pollster.questions import Question, QuestionKind, Survey


class ValidationError(Exception):
    def __init__(self, errors: dict[str, list[str]]):
        super().__init__("; ".join(f"{k}: {', '.join(v)}" for k, v in errors.items()))
        self.errors = errors


def _check_single(q: Question, value: Any) -> list[str]:
    if not isinstance(value, str) or value not in q.choices:
        return [f"must be one of {', '.join(q.choices)}"]
    return []


def _check_multi(q: Question, value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return ["must be a list of choices"]
    unknown = [v for v in value if v not in q.choices]
    if unknown:
        return [f"unknown choice(s): {', '.join(unknown)}"]
    if len(set(value)) != len(value):
        return ["a choice is selected twice"]
    return []


def _check_ranked(q: Question, value: Any) -> list[str]:
    errors = _check_multi(q, value)
    if errors:
        return errors
    if not value:
        return ["rank at least one choice"]
    return []


def _check_scale(q: Question, value: Any) -> list[str]:
    if not isinstance(value, int):
        return ["must be a whole number"]
    if not q.scale_min <= value <= q.scale_max:
        return [f"must be between {q.scale_min} and {q.scale_max}"]
    return []


def _check_text(q: Question, value: Any) -> list[str]:
    if not isinstance(value, str):
        return ["must be text"]
    if len(value) > q.max_length:
        return [f"at most {q.max_length} characters"]
    return []


CHECKS = {
    QuestionKind.SINGLE: _check_single,
    QuestionKind.MULTI: _check_multi,
    QuestionKind.RANKED: _check_ranked,
    QuestionKind.SCALE: _check_scale,
    QuestionKind.TEXT: _check_text,
}


def validate_answer(q: Question, value: Any) -> list[str]:
    if value is None or value == "" or value == []:
        return ["required"] if q.required else []
    return CHECKS[q.kind](q, value)


def validate_response(survey: Survey, answers: dict[str, Any]) -> dict[str, Any]:
    """The answers of one respondent, checked against the survey; raises ValidationError."""
    errors: dict[str, list[str]] = {}
    unknown = set(answers) - set(survey.question_ids())
    for key in sorted(unknown):
        errors[key] = ["no such question"]
    for q in survey.qs:
        problems = validate_answer(q, answers.get(q.id))
        if problems:
            errors[q.id] = problems
    if errors:
        raise ValidationError(errors)
    return {q.id: answers.get(q.id) for q in survey.qs}
