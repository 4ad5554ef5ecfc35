import json

import pytest

from pollster.anonymize import coarsen_timestamp, pseudonymize, strip_pii
from pollster.export import to_csv
from pollster.http import App, Request
from pollster.questions import Question, QuestionKind, Survey
from pollster.store import ResponseStore
from pollster.tally import plurality, ranked_choice
from pollster.validation import ValidationError, validate_answer, validate_response


def make_survey():
    s = Survey("s1", "Team offsite")
    s.add(Question("city", "Where?", QuestionKind.SINGLE, ("lisbon", "porto", "faro")))
    s.add(Question("food", "Food?", QuestionKind.MULTI, ("veg", "fish", "meat"), required=False))
    s.add(Question("mood", "How are you?", QuestionKind.SCALE))
    s.add(Question("rank", "Rank the talks", QuestionKind.RANKED, ("a", "b", "c")))
    return s


def test_question_needs_two_choices():
    with pytest.raises(ValueError):
        Question("q", "?", QuestionKind.SINGLE, ("only",))


def test_duplicate_question_id():
    s = make_survey()
    with pytest.raises(ValueError):
        s.add(Question("city", "again", QuestionKind.TEXT))


def test_validate_single_and_scale():
    s = make_survey()
    assert validate_answer(s.get("city"), "porto") == []
    assert validate_answer(s.get("city"), "madrid")
    assert validate_answer(s.get("mood"), 3) == []
    assert validate_answer(s.get("mood"), 9) == ["must be between 1 and 5"]


def test_validate_response_reports_every_problem():
    s = make_survey()
    with pytest.raises(ValidationError) as e:
        validate_response(s, {"city": "rome", "bogus": 1, "rank": ["a"]})
    assert set(e.value.errors) == {"city", "bogus", "mood"}


def test_plurality():
    assert plurality(["a", "b", "a", None], ("a", "b", "c")) == {"a": 2, "b": 1, "c": 0}


def test_ranked_choice_majority_in_first_round():
    r = ranked_choice([["a"], ["a"], ["b"]], ("a", "b"))
    assert r.winner == "a" and len(r.rounds) == 1


def test_ranked_choice_transfers():
    ballots = [["a", "b"], ["a", "b"], ["b", "a"], ["c", "b"], ["c", "b"]]
    r = ranked_choice(ballots, ("a", "b", "c"))
    assert r.rounds[0].eliminated == ["b"]
    assert r.winner == "c" or r.winner == "a"


def test_pseudonymize_is_stable_and_case_insensitive():
    assert pseudonymize("Ana@Example.com ") == pseudonymize("ana@example.com")


def test_strip_pii():
    assert strip_pii({"email": "x", "ip": "1.2.3.4", "lang": "pt"}) == {"lang": "pt"}


def test_coarsen_timestamp():
    assert coarsen_timestamp("2025-03-04T10:17:55Z") == "2025-03-04T10:00:00Z"


def test_csv_export():
    s = make_survey()
    store = ResponseStore()
    store.add("s1", "r1", {"city": "faro", "food": ["veg", "fish"], "mood": 4, "rank": ["b", "a"]})
    lines = to_csv(s, store.for_survey("s1")).split("\r\n")
    assert lines[0] == "respondent,submitted_at,city,food,mood,rank"
    assert lines[1].startswith("r1,") and lines[1].endswith(",faro,veg; fish,4,b; a")


def test_submit_then_duplicate():
    s = make_survey()
    app = App({"s1": s}, ResponseStore())
    body = json.dumps({"email": "ana@example.com", "answers": {"city": "faro", "mood": 2, "rank": ["c"]}})
    req = Request("POST", "/surveys/s1/responses", {"content-type": "application/json"}, body.encode())
    assert app(req).status == 201
    assert app(req).status == 409


def test_submit_validation_error():
    app = App({"s1": make_survey()}, ResponseStore())
    req = Request("POST", "/surveys/s1/responses", {"content-type": "application/json"},
                  json.dumps({"email": "x@y.z", "answers": {"city": "rome"}}).encode())
    resp = app(req)
    assert resp.status == 422 and "city" in resp.body["errors"]
