"""The site's pages, gathered from the workspace — every note as ``note_json`` with its
anchors' states now, the code they are tied to, the git history of their files — and written
from ``templates/``. Links are relative, so the folder works from ``file://`` and on any
static host; nothing is fetched from elsewhere (the search index is a script, which a page
opened from ``file://`` may load where it may not fetch JSON)."""

from __future__ import annotations

import posixpath
import re
import shutil
import tempfile
from collections import Counter
from pathlib import Path
from urllib.parse import quote

import orjson
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from ..core import anchors as A
from ..core.files import TETHER_DIR, WorkspaceError, git, glob_match
from ..core.languages import for_path
from ..core.resolution import note_json
from ..core.syntax import SourceFile
from ..core.text import digest
from ..core.workspace import Workspace
from .highlight import highlighted

HERE = Path(__file__).parent
MARKER = ".tether-site"  # a folder holding it was written by tether: it may be replaced whole
CONTEXT = 2  # lines shown around a note's code
LONGEST = 40  # lines of a note's code shown at most
LOST = (A.ORPHANED, A.AMBIGUOUS)
OPTIONAL = ("name", "state", "range", "now_named", "now_path", "candidates", "candidate_paths")  # of anchor JSON


def build(ws: Workspace, out: Path, findings: list[dict], candidates: list[dict]) -> dict:
    """Write the site into ``out`` (a new or empty folder, or a site written before, which is
    replaced only once the new one is complete). ``findings``: ``tether check``'s JSON
    findings; ``candidates``: the pending candidates as ``tether review --json`` gives them."""
    out = Path(out).resolve()
    if out.exists() and not out.is_dir():
        raise WorkspaceError(f"{out}: not a folder; give a new or empty folder (--out)")
    if out.exists() and not (out / MARKER).is_file() and any(out.iterdir()):
        raise WorkspaceError(f"{out}: not empty and not a site tether wrote; give a new or empty folder (--out)")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # a file where a folder of the path should be
        above = next(p for p in out.parents if p.exists())
        raise WorkspaceError(f"{out}: {above} is a file, not a folder; give a new or empty folder (--out)") from None
    except OSError as e:
        raise WorkspaceError(f"{out}: cannot create its folder ({e.strerror})") from None
    site = Site(ws, findings, candidates)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=".tether-site-", dir=out.parent))
    except OSError as e:
        raise WorkspaceError(f"{out.parent}: cannot write ({e.strerror})") from None
    try:
        pages = site.write(tmp)
        (tmp / MARKER).write_text("written by `tether site`; the whole folder is replaced when it runs again\n",
                                  encoding="utf-8")
        aside = None
        if out.exists():  # moved aside, not deleted in place: killed at any point, a whole site is left
            aside = Path(tempfile.mkdtemp(prefix=".tether-site-old-", dir=out.parent))
            out.rename(aside / "site")
        try:
            tmp.rename(out)
        except BaseException:
            if aside is not None:
                (aside / "site").rename(out)
            raise
        if aside is not None:
            shutil.rmtree(aside, ignore_errors=True)
    except BaseException as e:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(e, OSError):  # a full disk
            raise WorkspaceError(f"{out}: cannot write the site ({e.strerror})"
                                 + ("; the site there is as it was" if out.exists() else "")) from None
        raise
    return {"out": str(out), "pages": pages, "notes": len(site.notes), "files": len(site.files)}


def page_name(nid: str) -> str:
    """A note's page name: its id, unless a hand-written id holds more than letters, digits, - and _."""
    return nid if re.fullmatch(r"[\w-]+", nid, re.ASCII) else "id-" + digest(nid)


def file_url(path: str, line: int | None = None) -> str:
    return f"files/{quote(path)}.html" + (f"#L{line}" if line else "")



def plural(word: str, n: int) -> str:
    """The word for ``n`` of it: ``note``/``notes``, ``boundary``/``boundaries``."""
    if n == 1:
        return word
    return word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in tuple("aeiou") else word + "s"

class Site:
    def __init__(self, ws: Workspace, findings: list[dict], candidates: list[dict]):
        self.ws = ws
        with ws.snapshot():
            every = ws.notes()
            located = ws.locate_notes(every)
            notes = [note_json(n, located[n.id]) for n in every]
        self.notes = sorted(notes, key=lambda n: (n["created"], n["id"]), reverse=True)
        self.by_id = {n["id"]: n for n in self.notes}
        self.findings, self.candidates = findings, candidates
        for a in (a for c in candidates for a in c["anchors"]):
            a.setdefault("name", None)
        anchors = [a for n in self.notes for a in n["anchors"]]
        for a in anchors:  # the anchor JSON, with where its code is now (1-based lines)
            for key in OPTIONAL:
                a.setdefault(key, None)
            r, a["at"] = a["range"], a["now_path"] or a.get("path")
            a["line"] = a["end"] = None
            if r:  # a range that ends at the start of a line does not take that line in
                a["line"], a["end"] = r["start"]["line"] + 1, max(r["start"]["line"] + 1, r["end"]["line"] + (
                    r["end"]["character"] > 0))
        self.files = sorted({a["at"] for a in anchors if a["type"] != A.GLOB and self._exists(a["at"])})
        pages = set(self.files)
        for a in anchors:
            a["url"] = file_url(a["at"], a["line"]) if a["at"] in pages else None
        for n in self.notes:
            n["url"] = f"notes/{page_name(n['id'])}.html"
        self.live = [n for n in self.notes if n["status"] != "retired"]
        # what each page shows, gathered once: a page that looked through every note would
        # make the site quadratic in the notes
        self.on_file: dict[str, list[tuple[dict, dict]]] = {}
        for n in self.live:
            for a in n["anchors"]:
                self.on_file.setdefault(a["at"], []).append((n, a))
        self.found_on: dict[str, list[dict]] = {}
        for f in findings:
            self.found_on.setdefault(f.get("note"), []).append(f)
        self.superseding: dict[str, list[dict]] = {}
        for m in self.notes:
            self.superseding.setdefault(m["superseded_by"], []).append(m)
        self.globs = [(n, ps) for n in self.live if (ps := [a["pattern"] for a in n["anchors"] if a["type"] == A.GLOB])]
        self.env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True, trim_blocks=True,
                               lstrip_blocks=True, undefined=StrictUndefined)
        self.env.globals.update(file_url=file_url, file_pages=pages, notes=self.by_id, commit=self._head())
        self.env.filters["plural"] = plural

    def _exists(self, rel: str) -> bool:
        """``rel`` is a file of the workspace, named plainly (its page's path is made from it)."""
        if rel != posixpath.normpath(rel) or rel.startswith("../"):
            return False
        try:
            return self.ws.abs(rel).is_file()
        except WorkspaceError:
            return False

    def _head(self) -> str:
        r = git(self.ws.root, "log", "-1", "--format=%h, %cs")
        return r.stdout.strip() if r.returncode == 0 else ""

    def write(self, out: Path) -> int:
        for name in ("style.css", "search.js"):
            shutil.copyfile(HERE / "static" / name, out / name)
        index = [{"u": n["url"], "t": n["title"], "k": n["kind"], "s": n["status"],
                  "b": "\n".join([n["rationale"] or "", *(f"{a['option']}: {a['rejected_because']}"
                                                        for a in n["alternatives"]), n["body"]]).strip()}
                 for n in self.notes]
        (out / "search-index.js").write_bytes(b"window.TETHER_INDEX = " + orjson.dumps(index) + b";\n")
        pages = {"index.html": ("index.html", self.home()),
                 "notes.html": ("notes.html", {"notes": self.notes}),
                 "files.html": ("files.html", {"files": self.file_rows()}),
                 "timeline.html": ("timeline.html", {"months": self.timeline()}),
                 "search.html": ("search.html", {})}
        history = self.history()
        for n in self.notes:
            pages[n["url"]] = ("note.html", self.note_page(n, history.get(n["file"], [])))
        for rel in self.files:
            pages[f"files/{rel}.html"] = ("file.html", self.file_page(rel))
        for page, (template, data) in pages.items():  # page: its path in the folder
            path = out / page
            path.parent.mkdir(parents=True, exist_ok=True)
            root = "../" * page.count("/")
            path.write_text(self.env.get_template(template).render(root=root, **data), encoding="utf-8")
        return len(pages)

    # -- the pages' data ------------------------------------------------------------------------
    def home(self) -> dict:
        lost = [(n, a) for n in self.live for a in n["anchors"] if a["state"] in LOST]
        states = Counter(a["state"] for n in self.live for a in n["anchors"] if a["type"] != A.GLOB)
        return {"counts": Counter(n["kind"] for n in self.notes if n["status"] == "active"),
                "statuses": Counter(n["status"] for n in self.notes), "states": states,
                "total": len(self.notes), "files": len(self.files), "lost": lost,
                "findings": [self._finding(f) for f in self.findings if f["code"] not in LOST],
                "candidates": self.candidates, "recent": sorted(self.live, key=lambda n: n["updated"])[::-1][:8]}

    def _finding(self, f: dict) -> dict:
        return {**f, "url": file_url(f["file"], f["line"]) if f["file"] in self.env.globals["file_pages"] else None,
                "note_url": self.by_id[f["note"]]["url"] if f.get("note") in self.by_id else None}

    def file_rows(self) -> list[dict]:
        rows = {rel: {"path": rel, "url": file_url(rel), "notes": set(), "lost": 0} for rel in self.files}
        for n in self.live:
            for a in n["anchors"]:
                if a["at"] in rows:
                    rows[a["at"]]["notes"].add(n["id"])
                    rows[a["at"]]["lost"] += a["state"] in LOST
        return list(rows.values())

    def timeline(self) -> list[tuple[str, list[dict]]]:
        months: dict[str, list[dict]] = {}
        for n in self.notes:
            if n["kind"] == "decision":
                months.setdefault(n["created"][:7], []).append(n)
        return list(months.items())

    def note_page(self, n: dict, history: list[dict]) -> dict:
        return {"note": n, "history": history,
                "findings": [self._finding(f) for f in self.found_on.get(n["id"], ())],
                "supersedes": self.superseding.get(n["id"], [])}

    def file_page(self, rel: str) -> dict:
        try:
            src, unread = SourceFile(self.ws.read_source(rel), for_path(rel)), ""
        except WorkspaceError as e:  # too large, not text: its notes are shown without the code
            src, unread = SourceFile("", None), str(e)
        count = len(src.pos.lines) - (len(src.pos.lines) > 1 and not src.pos.lines[-1])  # a last newline ends a line
        whole, lost, ties = [], [], {}
        for n, a in self.on_file.get(rel, ()):
            if a["type"] == A.FILE:
                whole.append(n)
            elif a["state"] in LOST or a["line"] is None:
                lost.append((n, a))
            else:
                ties.setdefault((a["line"], a["end"]), []).append((n, a))
        blocks, seen = [], set()  # a line shown twice (excerpts overlap) is linked to (#L12) where first shown
        for (first, last), tied in sorted(ties.items()):
            shown = min(last, first + LONGEST - 1)
            start, stop = max(1, first - CONTEXT), min(count, shown + CONTEXT)
            html = highlighted(src, start - 1, stop - 1) if start <= stop else []
            lines = [(i, h, first <= i <= last, i not in seen) for i, h in enumerate(html, start)]
            seen.update(range(start, stop + 1))
            blocks.append({"more": last - shown, "notes": tied, "lines": lines})
        covering = [n for n, patterns in self.globs if any(glob_match(p, rel) for p in patterns)]
        return {"path": rel, "whole": whole, "lost": lost, "blocks": blocks, "covering": covering,
                "count": count, "unread": unread}

    def history(self) -> dict[str, list[dict]]:
        """Note file -> its commits, newest first (one ``git log`` for every note file)."""
        r = git(self.ws.root, "log", "--relative", "--name-only", "--format=%x1e%h%x1f%cs%x1f%an%x1f%s", "--",
                f"{TETHER_DIR}/notes")
        out: dict[str, list[dict]] = {}
        for entry in r.stdout.split("\x1e")[1:] if r.returncode == 0 else ():
            head, *files = entry.strip("\n").split("\n")
            sha, date, author, subject = head.split("\x1f", 3)
            for f in files:
                if f.strip():
                    out.setdefault(f.strip(), []).append(
                        {"sha": sha, "date": date, "author": author, "subject": subject})
        return out

