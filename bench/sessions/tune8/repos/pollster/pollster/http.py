"""A tiny HTTP handler layer, framework-free: the service mounts these on its own server."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from pollster.anonymize import anonymize_submission
from pollster.questions import Survey
from pollster.store import ResponseStore
from pollster.validation import ValidationError, validate_response


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


@dataclass
class Response:
    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=lambda: {"content-type": "application/json"})

    def encode(self) -> bytes:
        return json.dumps(self.body).encode("utf-8") if self.body is not None else b""


Handler = Callable[[Request], Response]


def read_json(req: Request) -> Any:
    if req.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ValueError("expected application/json")
    return json.loads(req.body.decode("utf-8") or "null")


class App:
    def __init__(self, surveys: dict[str, Survey], store: ResponseStore):
        self.surveys = surveys
        self.store = store
        self.routes: dict[tuple[str, str], Callable[[Request, str], Response]] = {
            ("POST", "responses"): self.handle_submit,
        }

    def __call__(self, req: Request) -> Response:
        parts = [p for p in req.path.split("/") if p]
        if len(parts) != 3 or parts[0] != "surveys":
            return Response(404, {"error": "not found"})
        handler = self.routes.get((req.method, parts[2]))
        if handler is None:
            return Response(405, {"error": "method not allowed"})
        return handler(req, parts[1])

    def handle_submit(self, req: Request, survey_id: str) -> Response:
        survey = self.surveys.get(survey_id)
        if survey is None:
            return Response(404, {"error": "no such survey"})
        if not survey.open:
            return Response(409, {"error": "survey is closed"})
        try:
            payload = read_json(req)
            answers = validate_response(survey, payload.get("answers", {}))
        except ValidationError as e:
            return Response(422, {"errors": e.errors})
        except (ValueError, AttributeError) as e:
            return Response(400, {"error": str(e)})
        respondent, meta = anonymize_submission(payload.get("email", ""), payload.get("meta", {}))
        if self.store.has_responded(survey_id, respondent):
            return Response(409, {"error": "already responded"})
        self.store.add(survey_id, respondent, answers, meta)
        return Response(201, {"ok": True})
