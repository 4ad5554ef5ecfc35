"""A second, blind reading of a labelled set: what a reader who never saw the writer's labels
keeps from the same sessions, scored by ``bench/distill.py`` beside the extractor.

``blind SET… --to DIR`` lays out, per set, what the reader may see: the sessions under made-up
names (``sessions/s01.jsonl`` …), each scenario's repository as its last session left it
(``end/c01/`` …) and ``labels.json`` with the cases to fill in — no scenario names, notes,
README or expected labels; the key back to the scenario names is kept apart, in ``DIR``'s
hidden ``.key-SET.json``. Hand each reader ``bench/sessions/SECOND_READER.md`` and its set's
folder. ``collect SET… --from DIR`` turns the filled-in ``labels.json`` back into the set's
``second_reader.json`` (scenario names; each note's sessions: those its quotes come from).

    python3 bench/second_reader.py blind heldout7 heldout8 --to /tmp/readers
    python3 bench/second_reader.py collect heldout7 heldout8 --from /tmp/readers
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE.parent / "server"))

from capture_fixtures import make_repo, materialize, replay, said, suites  # noqa: E402

READER = ("a language-model helper that saw only the transcripts and the repositories' end states under made-up "
          "names (not the writer's labels, scenario notes or README), given the instructions in "
          "bench/sessions/SECOND_READER.md")


def blind(name: str, out: Path) -> None:
    suite = next(s for s in suites() if s.name == name)
    d = out / name
    shutil.rmtree(d, ignore_errors=True)
    (d / "sessions").mkdir(parents=True)
    key, cases, n = {}, [], 0
    for i, sc in enumerate(suite.scenarios, 1):
        case, names = f"c{i:02d}", []
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "repo"
            make_repo(root, suite.repo(sc))
            for session in sc["sessions"]:
                n += 1
                names.append(f"s{n:02d}.jsonl")
                path = materialize(session, root, Path(tmp) / "transcripts", suite.transcript(session))
                shutil.copy(path, d / "sessions" / names[-1])
                replay(path, root, lambda event: None)  # applies the session's edits
            shutil.copytree(root, d / "end" / case, ignore=shutil.ignore_patterns(".git", ".tether"))
        key[case] = sc["name"]
        cases.append({"case": case, "repo": sc["repo"], "sessions": names, "notes": []})
    (d / "labels.json").write_text(json.dumps({"set": name, "cases": cases}, indent=1) + "\n", encoding="utf-8")
    (out / f".key-{name}.json").write_text(json.dumps(key), encoding="utf-8")
    print(f"{name}: {len(cases)} cases, {n} sessions → {d}")


def collect(name: str, src: Path) -> None:
    suite = next(s for s in suites() if s.name == name)
    key = json.loads((src / f".key-{name}.json").read_text(encoding="utf-8"))
    by_name = {sc["name"]: sc for sc in suite.scenarios}
    out = {}
    for case in json.loads((src / name / "labels.json").read_text(encoding="utf-8"))["cases"]:
        sc = by_name[key[case["case"]]]
        said_in = {blind_name: said(src / name / "sessions" / blind_name) for blind_name in case["sessions"]}
        notes = []
        for n in case["notes"]:
            quotes = n["quote"] if isinstance(n["quote"], list) else [n["quote"]]
            sessions = [real for blind_name, real in zip(case["sessions"], sc["sessions"])
                        if any(" ".join(q.split())[:60] in said_in[blind_name] for q in quotes)]
            notes.append({"kind": n["kind"], "anchor": n["anchor"], "phrase": n["phrase"], "title": n["title"],
                          "quote": quotes, "rejected": n.get("rejected", []), "sessions": sessions or sc["sessions"][:1]})
        out[sc["name"]] = notes
    (suite.folder / "second_reader.json").write_text(
        json.dumps({"reader": READER, "scenarios": out}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{name}: {sum(map(len, out.values()))} notes → {suite.folder / 'second_reader.json'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=["blind", "collect"])
    ap.add_argument("sets", nargs="+", metavar="SET")
    ap.add_argument("--to", type=Path, help="blind: the folder to lay the sets out in")
    ap.add_argument("--from", dest="src", type=Path, help="collect: the folder the readers filled in")
    args = ap.parse_args()
    for name in args.sets:
        if args.step == "blind":
            blind(name, args.to or ap.error("blind needs --to"))
        else:
            collect(name, args.src or ap.error("collect needs --from"))


if __name__ == "__main__":
    main()
