"""The labelled capture sets of ``bench/sessions/`` are data — each session's steps in
``turns/<session>.toml`` — built by one builder (``bench/sessions/build.py``): the committed
transcripts, which the benchmark and these tests read, are exactly what the data builds, and a
step the builder cannot play is refused naming the file, the step and the reason."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SETS = Path(__file__).parent.parent / "bench" / "sessions"
_spec = importlib.util.spec_from_file_location("labelled_sets_build", SETS / "build.py")
builder = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(builder)


@pytest.mark.parametrize("name", builder.set_names())
def test_the_committed_transcripts_are_what_the_sets_data_builds(name):
    folder = SETS / name
    for sc in builder.scenarios(folder):
        for s, _files in builder.played(folder, sc):
            committed = (folder / "sessions" / f"{s.name}.jsonl").read_text(encoding="utf-8")
            assert s.jsonl() == committed, f"{name}/sessions/{s.name}.jsonl is not what turns/{s.name}.toml builds " \
                                           f"(run python3 bench/sessions/build.py {name})"


def test_a_step_that_cannot_be_played_is_refused_with_its_file_and_number(tmp_path):
    (tmp_path / "turns").mkdir()
    path = tmp_path / "turns" / "s.toml"
    path.write_text('start = "2026-11-20T09:00:00.000Z"\n\n[[step]]\nuser = "rename it"\n\n'
                    '[[step]]\nedit = "a.py"\nold = "def f():"\nnew = "def g():"\n', encoding="utf-8")
    with pytest.raises(SystemExit, match=r"turns/s\.toml: step 2 \(edit\): .*'def f\(\):' is not once in a\.py"):
        builder.session(tmp_path, "s", {"a.py": "def h():\n    pass\n"})
    path.write_text('start = "2026-11-20T09:00:00.000Z"\n\n[[step]]\nuser = "hi"\nsay = "hello"\n', encoding="utf-8")
    with pytest.raises(SystemExit, match=r"turns/s\.toml: step 1 names user and say; one of user, "):
        builder.session(tmp_path, "s", {})
