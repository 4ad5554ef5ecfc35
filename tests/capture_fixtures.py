"""The transcript fixtures (tests/fixtures/transcripts/) and the labelled sets of
``bench/sessions/*/``, and their replay: the scenario's repository copied to a folder, each
session's edits applied to it in order, and the hook events Claude Code would have sent
along the way (``UserPromptSubmit``, ``PostToolUse`` after the tool changed the file,
``PostToolUseFailure``) handed to a sender — the real ``tether hook claude-code`` command in
the tests, the hook function in the benchmark. And the scoring of candidates against the
expected ones.

The replay reads the JSONL with plain ``json``, not with tether's transcript reader, so the
reader is tested against an independent reading of the same files."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

from tether.core.files import glob_match

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
SETS = Path(__file__).parent.parent / "bench" / "sessions"
PLACEHOLDER = "{{ROOT}}"


class Suite:
    """A labelled set: ``expected.json``'s scenarios, the repository each starts from and
    its sessions. The fixtures: one repository (``repo/``), transcripts beside the labels;
    a set of ``bench/sessions/``: ``repos/<repo>/`` and ``sessions/``."""

    def __init__(self, name: str, folder: Path, flat: bool = False):
        self.name, self.folder, self.flat = name, folder, flat
        self.scenarios = json.loads((folder / "expected.json").read_text(encoding="utf-8"))["scenarios"]

    def repo(self, sc: dict) -> Path:
        return self.folder / "repo" if self.flat else self.folder / "repos" / sc["repo"]

    def transcript(self, name: str) -> Path:
        return self.folder / name if self.flat else self.folder / "sessions" / name

    def second_reader(self, sc: dict) -> list[dict] | None:
        """What a second reader of the scenario's sessions labelled, blind (``second_reader.json``),
        shaped as candidates to score like the extractor's; None when none did."""
        path = self.folder / "second_reader.json"
        if not path.is_file():
            return None
        notes = json.loads(path.read_text(encoding="utf-8"))["scenarios"].get(sc["name"])
        return None if notes is None else [{
            "kind": n["kind"], "title": n["title"], "phrase": n["phrase"], "anchors": [_anchor(n["anchor"])],
            "sessions": n["sessions"],
            "evidence": [{"quote": q} for q in n["quote"]],
            "alternatives": [{"option": r, "rejected_because": None} for r in n["rejected"]]} for n in notes]


def suites() -> list[Suite]:
    """The fixtures, then every set under ``bench/sessions/`` (by name)."""
    return [Suite("fixtures", FIXTURES, flat=True),
            *(Suite(d.name, d) for d in sorted(SETS.glob("*/")) if (d / "expected.json").is_file())]


def scenarios() -> list[dict]:
    return json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))["scenarios"]


def scenario(name: str) -> dict:
    return next(s for s in scenarios() if s["name"] == name)


def make_repo(root: Path, source: Path = FIXTURES / "repo") -> None:
    """A copy of ``source`` (the sample repository) at ``root``, a git repository with an author."""
    shutil.copytree(source, root)
    for args in (["init", "-q"], ["config", "user.name", "Ada Lovelace"], ["config", "user.email", "ada@example.com"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def materialize(name: str, root: Path, out: Path, source: Path | None = None) -> Path:
    """The fixture transcript ``name`` (or the one at ``source``) with its paths pointing into
    ``root``, written to ``out``."""
    text = (source or FIXTURES / name).read_text(encoding="utf-8").replace(PLACEHOLDER, json.dumps(str(root))[1:-1])
    out.mkdir(parents=True, exist_ok=True)
    path = out / name
    path.write_text(text, encoding="utf-8")
    return path


def _prompt(rec: dict) -> str | None:
    if rec.get("type") != "user" or rec.get("isMeta") or rec.get("isSidechain") or rec.get("isCompactSummary"):
        return None
    content = rec["message"]["content"]
    if isinstance(content, str) and not content.startswith("<"):
        return content
    return None


def text_of(content) -> str:
    """The text of a message's content: the string, or its blocks' texts."""
    if isinstance(content, str):
        return content
    return "\n".join(b.get("text", "") for b in content if isinstance(b, dict))


def said(transcript: Path) -> str:
    """What the person and the agent wrote in a transcript (prompts and text blocks), whitespace folded."""
    out = []
    for line in transcript.read_text(encoding="utf-8").splitlines():
        try:
            out.append(text_of((json.loads(line).get("message") or {}).get("content") or ""))
        except (ValueError, AttributeError):
            continue
    return " ".join(" ".join(out).split())


def apply(tool: str, inp: dict) -> None:
    """Make the change a successful tool call made (its file_path is already absolute)."""
    if tool == "Write":
        Path(inp["file_path"]).parent.mkdir(parents=True, exist_ok=True)
        Path(inp["file_path"]).write_text(inp["content"], encoding="utf-8")
    elif tool in ("Edit", "MultiEdit"):
        p = Path(inp["file_path"])
        text = p.read_text(encoding="utf-8")
        for e in inp["edits"] if tool == "MultiEdit" else [inp]:
            assert e["old_string"] in text, f"{p}: the fixture's edit does not apply: {e['old_string']!r}"
            text = text.replace(e["old_string"], e["new_string"], -1 if e.get("replace_all") else 1)
        p.write_text(text, encoding="utf-8")


def hook_events(transcript: Path, root: Path) -> Iterator[tuple[dict, Callable[[], None] | None]]:
    """(event, the change to make before sending it) for each hook event of the session."""
    calls: dict[str, dict] = {}
    for line in transcript.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        base = {"session_id": rec.get("sessionId", ""), "transcript_path": str(transcript), "cwd": str(root),
                "permission_mode": "default"}
        prompt = _prompt(rec)
        if prompt is not None:
            yield {**base, "hook_event_name": "UserPromptSubmit", "prompt": prompt}, None
            continue
        if rec.get("isSidechain") or rec.get("type") not in ("user", "assistant"):
            continue
        content = rec["message"]["content"]
        if not isinstance(content, list):
            continue
        for block in content:
            if block.get("type") == "tool_use":
                calls[block["id"]] = block
            elif block.get("type") == "tool_result" and block["tool_use_id"] in calls:
                use = calls[block["tool_use_id"]]
                common = {**base, "tool_name": use["name"], "tool_input": use["input"], "tool_use_id": use["id"]}
                if block.get("is_error"):
                    yield {**common, "hook_event_name": "PostToolUseFailure", "error": text_of(block["content"]),
                           "is_interrupt": False}, None
                else:
                    change = (lambda u=use: apply(u["name"], u["input"])) \
                        if use["name"] in ("Edit", "MultiEdit", "Write") else None
                    yield {**common, "hook_event_name": "PostToolUse",
                           "tool_response": rec.get("toolUseResult")}, change


def replay(transcript: Path, root: Path, send: Callable[[dict], object]) -> int:
    """Replay one session on ``root``; returns the number of events sent."""
    n = 0
    for event, change in hook_events(transcript, root):
        if change is not None:
            change()
        send(event)
        n += 1
    return n


def _anchor(label: str) -> dict:
    """A label as the sets write it (``path:Qualified.name``, a path or a pattern), as a candidate's anchor."""
    if "*" in label:
        return {"type": "glob", "pattern": label}
    path, _, name = label.partition(":")
    return {"type": "symbol", "path": path, "name": name} if name else {"type": "file", "path": path}


def anchor_label(anchor: dict) -> str:
    """A candidate anchor (``Candidate.to_json``) as the fixtures write it."""
    if anchor["type"] == "glob":
        return anchor["pattern"]
    return f"{anchor['path']}:{anchor['name']}" if anchor.get("name") else anchor["path"]


def says(cand: dict, exp: dict) -> bool:
    """The candidate states the expected one: its key phrase in the title or the evidence."""
    return exp["phrase"].lower() in " ".join([cand["title"], *(e["quote"] for e in cand["evidence"])]).lower()


def ties(cand: dict, exp: dict, files: list[str] = ()) -> bool:
    """The expected anchor is among the candidate's: the same label, or a pattern that
    picks the same files of the repository (``pkg/*.py`` and ``pkg/**/*.py`` in a flat
    package)."""
    labels = {anchor_label(a) for a in cand["anchors"]}
    if exp["anchor"] in labels:
        return True
    picked = (lambda pattern: {f for f in files if glob_match(pattern, f)})
    return "*" in exp["anchor"] and bool(picked(exp["anchor"])) and \
        any("*" in x and picked(x) == picked(exp["anchor"]) for x in labels)


def matches(cand: dict, exp: dict, files: list[str] = ()) -> bool:
    """A candidate is the expected one: the same kind, the expected anchor among its
    anchors (:func:`ties`), and the key phrase in its title or its evidence."""
    return cand["kind"] == exp["kind"] and ties(cand, exp, files) and says(cand, exp)


def pairs(cands: list[dict], expected: list[dict], files: list[str] = ()) -> list[tuple[dict, dict]]:
    """(candidate, expected) matched: each candidate matches at most one expected, and the
    other way round."""
    left, out = list(expected), []
    for c in cands:
        e = next((e for e in left if matches(c, e, files)), None)
        if e is not None:
            left.remove(e)
            out.append((c, e))
    return out


def score(cands: list[dict], expected: list[dict]) -> tuple[int, int, int]:
    """(true positives, candidates, expected)."""
    return len(pairs(cands, expected)), len(cands), len(expected)


def rejected_found(cand: dict, exp: dict) -> int:
    """How many of the expected rejected options the candidate names among its
    alternatives (the phrase in an option or its reason)."""
    texts = [f"{a['option']} {a['rejected_because'] or ''}".lower() for a in cand["alternatives"]]
    return sum(any(r.lower() in t for t in texts) for r in exp.get("rejected", []))


def detail(cands: list[dict], expected: list[dict], sessions: int, files: list[str] = ()) -> dict:
    """Everything the benchmark reports of one scenario (``files``: its repository's)."""
    found = pairs(cands, expected, files)
    missed = [e for e in expected if all(e is not x for _, x in found)]
    wrong = [c for c in cands if all(c is not x for x, _ in found)]
    return {"tp": len(found), "candidates": len(cands), "expected": len(expected), "sessions": sessions,
            "rejected": sum(len(e.get("rejected", [])) for e in expected),
            "rejected_found": sum(rejected_found(c, e) for c, e in found),
            "restated": len(expected) if sessions > 1 else 0,  # expected of a scenario of several sessions
            "merged": sum(len(c["sessions"]) > 1 for c, _ in found) if sessions > 1 else 0,
            "missed": missed, "wrong": wrong, **near(missed, wrong, files)}


def near(missed: list[dict], wrong: list[dict], files: list[str] = ()) -> dict[str, int]:
    """Expected candidates missed although a wrong candidate states them: what the extractor
    found but tied to other code, called another kind, or both."""
    out = {"near_anchor": 0, "near_kind": 0, "near_both": 0}
    for e in missed:
        said = [c for c in wrong if says(c, e)]
        if any(c["kind"] == e["kind"] for c in said):
            out["near_anchor"] += 1
        elif any(ties(c, e, files) for c in said):
            out["near_kind"] += 1
        elif said:
            out["near_both"] += 1
    return out
