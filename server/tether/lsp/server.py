"""The language server: a flat list of LSP features, each a short function that asks the
core and converts the answer (DESIGN.md decision 4). All core work runs on one worker
thread, so the event loop never waits on a parse and the core is never used from two
threads at once."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..capture import candidates as capture
from ..checks.findings import check_findings, file_findings, note_file_findings
from ..checks.worker import compiles
from ..context.calls import warm
from ..context.ranking import context_for
from ..core import anchors as A
from ..core.files import TETHER_DIR, glob_match, is_under
from ..core.live import LiveFile
from ..core.notes import KINDS, NoteError, parse_note
from ..core.resolution import note_json
from ..core.workspace import Workspace, WorkspaceError
from . import convert as C
from .protocol import TetherProtocol, converter, serve_stdio
from .settings import Settings, parse_settings

log = logging.getLogger("tether.lsp")

RECORD_TITLES = {"decision": "Record decision here", "invariant": "Record invariant here",
                 "boundary": "Record boundary here", "intent": "Record intent here",
                 "workaround": "Mark as deliberate workaround"}


class TetherServer(LanguageServer):
    def __init__(self):
        super().__init__("tether", __version__, converter_factory=converter, protocol_cls=TetherProtocol,
                         text_document_sync_kind=T.TextDocumentSyncKind.Incremental)
        self.settings = Settings()
        self.folders: list[Path] = []
        self.workspaces: dict[Path, Workspace] = {}
        self.files: dict[str, Future] = {}  # open source documents by uri: Future[LiveFile]
        # a document's changes not yet applied, by uri: the changes that arrive before the core
        # thread gets to them are applied together, then parsed and checked once
        self.pending: dict[str, list] = {}
        self.pending_lock = threading.Lock()
        self.broken_uris: set[str] = set()  # note files with published errors
        self.watching = False  # the client tells us when note files change
        self.core = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tether-core")
        self.tasks: set[asyncio.Task] = set()  # what the document notifications started (later)

    def run(self, fn, *args) -> asyncio.Future:
        """Queue core work on the core thread. Handlers queue their work before their first
        await, so it runs in the order the messages arrived (a hover after a change sees it,
        and changes sent after it wait for it: their batch is closed here)."""
        with self.pending_lock:
            self.pending.clear()
        return asyncio.wrap_future(self.core.submit(fn, *args))

    # -- documents: called by the protocol as each notification arrives (no task each) --------
    def did_open(self, params: T.DidOpenTextDocumentParams) -> None:
        found = self.workspace_of(params.text_document.uri)
        if found is None or is_note_file(found[1]):
            return
        ws, rel = found
        uri, text = params.text_document.uri, params.text_document.text
        self.files[uri] = self.core.submit(LiveFile, ws, rel, text)

        async def publish():
            self.publish(uri, await self.run(self.diagnostics_for, uri))
        self.later(publish())

    def did_close(self, params: T.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        opened = self.files.pop(uri, None)
        if opened is None:
            return

        def close():
            try:
                opened.result().save()
            except Exception:  # noqa: BLE001 — the open failed and was logged
                pass

        async def clear():
            await self.run(close)
            self.publish(uri, [])
        self.later(clear())

    def did_change(self, params: T.DidChangeTextDocumentParams) -> None:
        """Edits of an open document. A source document's go to the core thread in batches
        (``changed``); pygls' copy of it is not kept in step (nothing reads it, and it rebuilt
        the whole text on every change). A note file's buffer is pygls' copy: its errors show
        as the user types. Edits of a document never opened are logged and dropped."""
        uri = params.text_document.uri
        if uri in self.files:
            queued = self.changed(uri, params.content_changes)
            if queued is not None:
                self.later(queued)
            return
        if uri not in self.workspace.text_documents:  # (before workspace_of: it may create a workspace)
            log.warning("didChange for %s, which was never opened: ignored", uri)
            return
        found = self.workspace_of(uri)
        if not (found and is_note_file(found[1])):  # outside every workspace: nothing of tether's
            return
        for change in params.content_changes:
            self.workspace.update_text_document(params.text_document, change)
        note_buffer_changed(self, uri, found)

    def later(self, work) -> None:
        """Run the coroutine ``work`` as a task (held: the loop keeps only a weak reference)."""
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def changed(self, uri: str, changes: list):
        """Queue a document's changes: joined to its queued batch, if one has not started
        (None then), else a new batch on the core thread, whose diagnostics the returned
        coroutine publishes (unless newer changes are queued by then)."""
        with self.pending_lock:
            batch = self.pending.get(uri)
            if batch is not None:
                batch.extend(changes)
                return None
            batch = self.pending[uri] = list(changes)

        def apply():
            with self.pending_lock:  # from here on, changes start a new batch
                if self.pending.get(uri) is batch:
                    del self.pending[uri]
            lf = self.live(uri)
            if lf is None:
                return []
            for ch in C.coalesced(batch):
                lf.apply(C.core_range(ch.range) if isinstance(ch, T.TextDocumentContentChangePartial) else None, ch.text)
            if uri in self.pending:
                return None  # newer changes are queued: parse and check those, not this stale text
            return self.diagnostics_for(uri)

        async def publish():
            diagnostics = await asyncio.wrap_future(self.core.submit(apply))
            if diagnostics is not None:
                self.publish(uri, diagnostics)
        return publish()

    def live(self, uri: str) -> LiveFile | None:
        """The open document, on the core thread. A document whose open is queued behind the
        caller (opened while a core job ran) is not open yet for it: waiting for its open on
        the one core thread would wait forever; its open publishes what it shows itself."""
        fut = self.files.get(uri)
        if fut is None or not fut.done():
            return None
        try:
            return fut.result()
        except Exception:  # the open failed and was logged
            return None

    # -- where a document belongs ------------------------------------------------------------
    def workspace_of(self, uri: str, create: bool = False) -> tuple[Workspace, str] | None:
        path = to_fs_path(uri)
        if not path or "\0" in path:
            return None
        p = Path(path)
        try:
            ws = Workspace.find(p.parent)
        except WorkspaceError:
            if not create:
                return None
            folder = next((f for f in sorted(self.folders, key=lambda f: -len(f.parts))
                           if f == p or f in p.parents), None)
            if folder is None:  # outside every workspace root the client opened: never create one there
                return None
            ws, _ = Workspace.init(folder, exact=True)
        if ws.root not in self.workspaces:  # once, not on every document event (where there is no inotify
            ws.repo.watch()  # it would try again each time): exact, and no scan of the notes folder per read
        ws = self.workspaces.setdefault(ws.root, ws)
        ws.repo.auto_refresh = not self.watching
        try:
            rel = ws.rel(p)
        except WorkspaceError:
            return None
        if any(glob_match(g, rel) for g in self.settings.exclude):
            return None
        return ws, rel

    def note_uri(self, ws: Workspace, note_path: str) -> str:
        return from_fs_path(str(ws.root / note_path))

    # -- publishing ------------------------------------------------------------------------
    def diagnostics_for(self, uri: str) -> list[T.Diagnostic]:
        lf = self.live(uri)
        if lf is None:
            return []
        out = []
        located = lf.resolve()
        findings = file_findings(lf.rel, located)
        if any(n.kind == "invariant" and n.checks for n in lf.notes):
            findings += check_findings(lf.rel, lf.doc.current, lf.notes, located)
        for f in findings:
            sev = self.settings.severity.get(f.code)
            if sev == "off":
                continue
            note = lf.ws.note(f.note_id)
            out.append(C.diagnostic(f, self.note_uri(lf.ws, note.path) if note else None, sev))
        sev = self.settings.severity.get(C.PROPOSED)
        if sev != "off":
            out += [C.proposal(p, sev) for p in capture.places(lf.ws, lf.rel, lf.text, lf.doc.current)]
        return out

    def publish(self, uri: str, diagnostics: list[T.Diagnostic]) -> None:
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))

    async def refresh_all(self, ws: Workspace | None = None) -> None:
        """Recompute and publish the diagnostics of every open document (of ``ws``)."""
        def work():
            return {uri: self.diagnostics_for(uri) for uri in list(self.files)
                    if ws is None or getattr(self.live(uri), "ws", None) is ws}
        for uri, diags in (await self.run(work)).items():
            self.publish(uri, diags)

    async def publish_note_errors(self) -> None:
        """Broken note files get an Error at the offending line, open or not."""
        def work():
            now = {}
            for ws in list(self.workspaces.values()):
                for f in note_file_findings(ws.broken()):
                    uri = from_fs_path(str(ws.root / f.path))
                    now.setdefault(uri, []).append(C.diagnostic(f, None, self.settings.severity.get(f.code)))
            return now
        now = await self.run(work)
        for uri in self.broken_uris - set(now):
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        for uri, diags in now.items():
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=diags))
        self.broken_uris = set(now)

    def reload(self, ws: Workspace) -> None:
        """Note files changed (saved, edited by hand, git pull): re-resolve the open
        documents of ``ws`` (on the core thread)."""
        ws.refresh(force=True)
        for uri in list(self.files):
            lf = self.live(uri)
            if lf is not None and lf.ws is ws:
                lf.reload()

    async def index_rest(self, ws: Workspace) -> None:
        """Index what the first refresh left (a fresh clone: every note file) a batch at a
        time, between the editor's requests: a document opened meanwhile gets its own notes
        first. Then what depends on every note is shown anew."""
        if ws.repo.background and await self.run(ws.repo.index_pending):
            while await self.run(ws.repo.index_pending):
                pass
            await self.notes_changed(ws)
        ws.repo.background = False  # from now on a change is indexed when it is seen

    async def notes_changed(self, ws: Workspace, reloaded: bool = False) -> None:
        if not reloaded:
            await self.run(self.reload, ws)
        await self.refresh_all(ws)
        await self.publish_note_errors()
        if self._client_can("workspace", "code_lens", "refresh_support"):
            self.workspace_code_lens_refresh(None)

    def _client_can(self, *path) -> bool:
        cur = self.client_capabilities
        for p in path:
            cur = getattr(cur, p, None)
            if cur is None:
                return False
        return bool(cur)


server = TetherServer()


def is_note_file(rel: str) -> bool:
    return rel.startswith(f"{TETHER_DIR}/notes/") and rel.endswith(".md")


# -- lifecycle ----------------------------------------------------------------------------

@server.feature(T.INITIALIZE)
def initialize(ls: TetherServer, params: T.InitializeParams):
    ls.folders = [Path(to_fs_path(f.uri)) for f in (params.workspace_folders or [])]
    if not ls.folders and params.root_uri:
        ls.folders = [Path(to_fs_path(params.root_uri))]
    ls.settings, errors = parse_settings(params.initialization_options)
    for e in errors:
        log.warning("initializationOptions: %s (using the default)", e)
    for folder in ls.folders:
        try:
            ws = Workspace.find(folder)
        except WorkspaceError:
            continue
        ws.repo.background = True  # a fresh clone's notes are indexed after the first hover (initialized)
        ws.repo.watch()
        ls.workspaces.setdefault(ws.root, ws)


@server.feature(T.INITIALIZED)
async def initialized(ls: TetherServer, params: T.InitializedParams):
    await ls.run(lambda: [ws.refresh() for ws in ls.workspaces.values()])
    if ls._client_can("workspace", "did_change_watched_files", "dynamic_registration"):
        watchers = [T.FileSystemWatcher(glob_pattern=f"**/{TETHER_DIR}/notes/*.md"),
                    T.FileSystemWatcher(glob_pattern="**/*",
                                        kind=T.WatchKind.Create | T.WatchKind.Change | T.WatchKind.Delete)]
        await ls.client_register_capability_async(T.RegistrationParams(registrations=[T.Registration(
            id="tether-watch", method=T.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=T.DidChangeWatchedFilesRegistrationOptions(watchers=watchers))]))
        ls.watching = True  # from now on the notes folder is rescanned only when it changes
        for ws in ls.workspaces.values():
            ws.repo.auto_refresh = False
    for ws in list(ls.workspaces.values()):
        await ls.index_rest(ws)
    await ls.publish_note_errors()
    for ws in list(ls.workspaces.values()):  # the call graph of a fresh clone, a batch at a time between requests
        while await ls.run(warm, ws):
            pass
    # the loaded notes live as long as the server: keep the collector from re-walking them
    # on every collection (full collections of ~200k objects cost 100+ ms mid-typing)
    gc.collect()
    gc.freeze()


@server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: TetherServer, params: T.DidChangeConfigurationParams):
    settings = params.settings
    if isinstance(settings, dict) and isinstance(settings.get("tether"), dict):
        settings = settings["tether"]
    ls.settings, errors = parse_settings(settings)
    for e in errors:
        ls.window_show_message(T.ShowMessageParams(T.MessageType.Warning, f"tether settings: {e}"))
    await ls.refresh_all()


# -- documents: live anchors --------------------------------------------------------------

def note_buffer_changed(ls: TetherServer, uri: str, found) -> None:
    """A note file being edited: its parse errors show as the user types."""
    ws, rel = found
    doc = ls.workspace.get_text_document(uri)
    diags = []
    try:
        parse_note(doc.source, rel)
    except NoteError as e:
        diags = [C.diagnostic(f, None) for f in note_file_findings([e])]
    ls.publish(uri, diags)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: TetherServer, params: T.DidSaveTextDocumentParams):
    uri = params.text_document.uri
    if uri in ls.files:
        def save():
            lf = ls.live(uri)
            if lf is not None:
                lf.save()
                # a rename is written into the note file with the code, so the note follows
                # it in every clone, not only in this machine's cache
                if lf.ws.sync([lf.rel], renamed_only=True, texts={lf.rel: lf.text}):
                    ls.reload(lf.ws)
            return ls.diagnostics_for(uri)
        ls.publish(uri, await ls.run(save))
        return
    found = ls.workspace_of(uri)
    if found and is_note_file(found[1]):
        await ls.notes_changed(found[0])


@server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
async def did_change_watched_files(ls: TetherServer, params: T.DidChangeWatchedFilesParams):
    notes_touched, sources, created = set(), [], []
    for ev in params.changes:
        found = ls.workspace_of(ev.uri)
        if found is None:
            continue
        ws, rel = found
        if is_note_file(rel):
            notes_touched.add(ws)
        elif ev.type == T.FileChangeType.Created:
            created.append((ws, rel))  # with a deletion, a move outside the editor: notes follow it
        elif ev.uri not in ls.files:
            sources.append((ws, rel))  # changed or deleted outside the editor: the replace path

    def work():  # queued at once, so a request sent after this event sees the new notes
        for ws, rel in created:
            ws.resolutions.created(rel)
        for ws in notes_touched:
            ls.reload(ws)
        for ws, rel in sources:
            if ws.notes_on(rel):
                ws.locate(rel)
    await ls.run(work)
    for ws in notes_touched:
        await ls.notes_changed(ws, reloaded=True)


FILES = T.FileOperationRegistrationOptions(filters=[
    T.FileOperationFilter(pattern=T.FileOperationPattern(glob="**/*"), scheme="file")])


@server.feature(T.WORKSPACE_WILL_RENAME_FILES, FILES)
async def will_rename_files(ls: TetherServer, params: T.RenameFilesParams):
    """Files about to be renamed in the editor: resolve their anchors now, so what tether
    keeps of them (where each was last seen, and when) is current when they move."""
    def work():
        for ws, old, _ in _renamed(ls, params):
            for rel in _anchored_under(ws, [old]):
                ws.locate(rel)
    await ls.run(work)
    return None


@server.feature(T.WORKSPACE_DID_RENAME_FILES, FILES)
async def did_rename_files(ls: TetherServer, params: T.RenameFilesParams):
    """Files renamed in the editor: their notes follow, and the new paths are written into
    the note files (as ``tether sync`` does)."""
    def work():
        moved = {}
        for ws, old, new in _renamed(ls, params):  # a file, or every file of a folder (the tree walked only then)
            for rel in [new] if ws.abs(new).is_file() else [f for f in ws.files() if is_under(f, new)]:
                ws.resolutions.created(rel)
            moved.setdefault(ws, []).append(old)
        for ws, olds in moved.items():
            ws.sync(_anchored_under(ws, olds))
            ls.reload(ws)
        return list(moved)
    for ws in await ls.run(work):
        await ls.notes_changed(ws, reloaded=True)


def _anchored_under(ws: Workspace, paths: list[str]) -> list[str]:
    """The files, under these files or folders, that notes are anchored in."""
    return sorted({a.path for n in ws.notes() for a in n.anchors
                   if a.type != A.GLOB and any(is_under(a.path, p) for p in paths)})


def _renamed(ls: TetherServer, params: T.RenameFilesParams) -> list[tuple[Workspace, str, str]]:
    """(workspace, old path, new path) of each rename inside one workspace (files or folders)."""
    out = []
    for f in params.files:
        old, new = ls.workspace_of(f.old_uri), ls.workspace_of(f.new_uri)
        if old is not None and new is not None and old[0] is new[0] and not is_note_file(old[1]):
            out.append((old[0], old[1], new[1]))
    return out


# -- what the user sees -------------------------------------------------------------------

@server.feature(T.TEXT_DOCUMENT_HOVER)
async def hover(ls: TetherServer, params: T.HoverParams):
    lf_locs = await ls.run(lambda: (lf := ls.live(params.text_document.uri)) and lf.resolve())
    if not lf_locs:
        return None
    locs = lf_locs
    hits = C.innermost_first(locs, params.position.line, params.position.character)
    if not hits:
        return None
    return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, C.hover_markdown(hits)), C.lsp_range(hits[0].range))


@server.feature(T.TEXT_DOCUMENT_CODE_LENS, T.CodeLensOptions(resolve_provider=True))
async def code_lens(ls: TetherServer, params: T.CodeLensParams):
    if not ls.settings.code_lens:
        return None
    locs = await ls.run(lambda: (lf := ls.live(params.text_document.uri)) and lf.resolve())
    if locs is None:
        return None
    lines = sorted({loc.range.sl for loc in locs if loc.range is not None and loc.anchor.type == A.SYMBOL})
    lenses = [T.CodeLens(C.lsp_range(A.Range(line, 0, line, 0)),
                         data={"uri": params.text_document.uri, "line": line}) for line in lines]
    for loc in locs:
        if C.lost(loc):
            place = loc.place or A.Range(0, 0, 0, 0)
            lenses.append(T.CodeLens(C.lsp_range(A.Range(place.sl, 0, place.sl, 0)), command=T.Command(
                title=f"{loc.state}: {loc.note.title}", command="tether.showNote", arguments=[{"id": loc.note.id}])))
    return lenses


@server.feature(T.CODE_LENS_RESOLVE)
async def code_lens_resolve(ls: TetherServer, lens: T.CodeLens):
    data = lens.data if isinstance(lens.data, dict) else {}

    def work():  # on the core thread: the anchors as they are after every change queued so far
        lf = ls.live(data.get("uri", ""))
        return [loc for loc in (lf.resolve() if lf else []) if loc.range is not None
                and loc.range.sl == data.get("line") and loc.anchor.type == A.SYMBOL]
    locs = await ls.run(work)
    ids = [loc.note.id for loc in locs]
    lens.command = T.Command(title=C.lens_title(locs) or "no notes", command="tether.showNote",
                             arguments=[{"id": ids[0]}] if len(ids) == 1 else [{"ids": ids}])
    return lens


@server.feature(T.TEXT_DOCUMENT_CODE_ACTION)
async def code_action(ls: TetherServer, params: T.CodeActionParams):
    uri = params.text_document.uri
    found = ls.workspace_of(uri)
    if found is not None and is_note_file(found[1]):
        return None
    where = {"uri": uri, "range": ls.protocol._converter.unstructure(params.range)}
    actions = [T.CodeAction(title, kind=T.CodeActionKind.Refactor,
                            command=T.Command(title=title, command="tether.record", arguments=[{**where, "kind": kind}]))
               for kind, title in RECORD_TITLES.items()]
    for d in params.context.diagnostics:
        if d.source == "tether" and isinstance(d.data, dict) and isinstance(d.data.get("candidate"), str):
            actions += await _candidate_actions(ls, d)
            continue
        if d.source == "tether" and isinstance(d.data, dict) and isinstance(d.data.get("note"), str):
            fixes = C.note_fixes(d, where, ls.protocol._converter.unstructure(d.range))
            actions += [T.CodeAction(title, kind=T.CodeActionKind.QuickFix, diagnostics=[d],
                                     command=T.Command(title=title, command=cmd, arguments=[arg]))
                        for title, cmd, arg in fixes]
    only = params.context.only
    if only:  # the kinds the client asked for (a kind covers its sub-kinds: refactor -> refactor.extract)
        want = [getattr(k, "value", k) for k in only]
        actions = [a for a in actions if any(a.kind.value == k or a.kind.value.startswith(f"{k}.") for k in want)]
    return actions


async def _candidate_actions(ls: TetherServer, d: T.Diagnostic) -> list[T.CodeAction]:
    """Accept (or merge into the note it would repeat), accept and edit, dismiss."""
    cid = d.data["candidate"]
    def look():
        ws = _ws_of_candidate(ls, cid)
        c = capture.candidate(ws, cid)
        return c, capture.near_duplicates(ws, c) if c.status == capture.PENDING else []
    try:
        c, near = await ls.run(look)
    except WorkspaceError:
        return []
    if c.status != capture.PENDING:
        return []  # decided meanwhile (another editor, the CLI): the next diagnostics drop it
    what = f"proposed {c.note_kind}"
    if near:
        fixes = [(f"Merge {what} into note “{n.title}”", {"id": cid, "merge": n.id}) for n in near]
    else:
        fixes = [(f"Accept {what}", {"id": cid}), (f"Accept {what} and edit it", {"id": cid, "edit": True})]
    actions = [T.CodeAction(title, kind=T.CodeActionKind.QuickFix, diagnostics=[d], is_preferred=i == 0,
                            command=T.Command(title=title, command="tether.acceptCandidate", arguments=[arg]))
               for i, (title, arg) in enumerate(fixes)]
    title = f"Dismiss {what}"
    actions.append(T.CodeAction(title, kind=T.CodeActionKind.QuickFix, diagnostics=[d], command=T.Command(
        title=title, command="tether.dismissCandidate", arguments=[{"id": cid}])))
    return actions


# -- commands -----------------------------------------------------------------------------

def _position(arg: dict) -> tuple[int, int, tuple[int, int] | None]:
    r = arg.get("range") or {"start": arg.get("position") or {"line": 0, "character": 0}}
    start, end = _point(r["start"]), _point(r["end"]) if r.get("end") else None
    return *start, end if end and end != start else None


def _point(p) -> tuple[int, int]:
    if not (isinstance(p, dict) and all(type(p.get(k)) is int and 0 <= p[k] < 2**31 for k in ("line", "character"))):
        raise ValueError(f"not a position: {p!r:.80}")
    return p["line"], p["character"]


def _located_ws(ls: TetherServer, uri: str, create: bool = False):
    found = ls.workspace_of(uri, create=create)
    if found is None:
        raise WorkspaceError(f"{to_fs_path(uri) or uri} is not in a workspace tether serves")
    return found


def _command(name: str, *strings: str):
    """The command ``name``: it takes one object whose ``strings`` fields are strings, else it
    is answered with InvalidParams; a refused request is shown to the user, never silently."""
    def wrap(fn):
        async def run(ls: TetherServer, *args):
            arg = args[0] if len(args) == 1 else None
            if not isinstance(arg, dict) or any(not isinstance(arg.get(k), str) for k in strings):
                fields = f" with {', '.join(strings)} (strings)" if strings else ""
                raise JsonRpcInvalidParams(f"{name}: takes one object{fields}, not {args!r:.80}")
            try:
                return await fn(ls, arg)
            except (WorkspaceError, NoteError, KeyError, TypeError, ValueError) as e:
                ls.window_show_message(T.ShowMessageParams(T.MessageType.Error, f"tether: {e}"))
                return None
        run.__name__ = fn.__name__
        return server.command(name)(run)
    return wrap


@_command("tether.record", "uri")
async def record(ls: TetherServer, arg: dict):
    """Record a note at {uri, range|position, kind}. With a title (and optionally rationale,
    alternatives, body, tags, how) it is recorded as given; without one a template is
    written and opened for the user to fill in (clients with no input UI)."""
    kind = arg.get("kind", "decision")
    if kind not in KINDS:
        raise WorkspaceError(f"unknown kind '{kind}'")
    ws, rel = _located_ws(ls, arg["uri"], create=True)
    line, col, end = _position(arg)
    title = (arg.get("title") or "").strip()
    template = not title
    alts = C.rejected_options(arg.get("alternatives") or [])
    how = arg.get("how") or A.SYMBOL

    def work():
        lf = ls.live(arg["uri"])
        kwargs = dict(title=title or f"New {kind}: replace this line with the title",
                      body=arg.get("body") or (TEMPLATE_BODY[kind] if template else ""),
                      rationale=arg.get("rationale", ""), rejected=alts, tags=arg.get("tags") or [],
                      works_around=arg.get("works_around", ""), remove_when=arg.get("remove_when", ""),
                      failure=arg.get("failure", ""), cause=arg.get("cause", ""),
                      checks=arg.get("checks") or [], text=lf.text if lf else None)
        note = ws.record(kind, rel, line, col, how=how, end=end, or_statement=True, compile=compiles, **kwargs)
        ls.reload(ws)
        return note
    note = await ls.run(work)
    await ls.refresh_all(ws)
    if template:
        title_line = next((i for i, s in enumerate((ws.root / note.path).read_text().split("\n"))
                           if s.startswith("title = ")), 0)
        await ls.window_show_document_async(T.ShowDocumentParams(
            uri=ls.note_uri(ws, note.path), take_focus=True,
            selection=T.Range(T.Position(title_line, 9), T.Position(title_line, 9 + len(note.title)))))
    return note_json(note)


TEMPLATE_BODY = {
    "decision": "Context: what forced a choice.\n\nAdd each option you rejected as an [[alternatives]] table above\n"
                "(option, rejected_because), and the reason for this one as rationale.\n",
    "invariant": "What must stay true here, and what breaks if it does not.\n",
    "boundary": "What is deliberately left out, or which edge cases are handled, and why.\n",
    "intent": "Why this code exists and what it is for.\n",
    "workaround": "What looks wrong here and why it must not be \"fixed\" yet.\n"
                  "Set works_around and remove_when above.\n",
    "gotcha": "What fails here when the code is changed the obvious way, and why.\n"
              "Set failure and cause above.\n",
}


@_command("tether.confirm", "id")
async def confirm(ls: TetherServer, arg: dict):
    ws = await ls.run(_ws_of_note, ls, arg["id"])

    def work():  # the code as the user sees it: open buffers, not the files on disk
        texts = {lf.rel: lf.text for lf in map(ls.live, list(ls.files)) if lf is not None and lf.ws is ws}
        return ws.confirm(arg["id"], texts)
    return await _change_notes(ls, ws, work)


@_command("tether.reanchor", "uri", "id")
async def reanchor(ls: TetherServer, arg: dict):
    ws, rel = _located_ws(ls, arg["uri"])
    line, col, _ = _position(arg)

    def work():
        lf = ls.live(arg["uri"])
        return ws.reanchor(arg["id"], int(arg.get("anchor", 0)), rel, line, col, text=lf.text if lf else None)
    return await _change_notes(ls, ws, work)


@_command("tether.ignoreOnce", "uri", "id", "check")
async def ignore_once(ls: TetherServer, arg: dict):
    ws, rel = _located_ws(ls, arg["uri"])
    line, col, _ = _position(arg)

    def work():
        lf = ls.live(arg["uri"])
        return ws.ignore_once(arg["id"], arg["check"], rel, line, col, arg.get("reason", ""),
                              text=lf.text if lf else None)
    return await _change_notes(ls, ws, work)


@_command("tether.retire", "id")
async def retire(ls: TetherServer, arg: dict):
    ws = await ls.run(_ws_of_note, ls, arg["id"])
    return await _change_notes(ls, ws, lambda: ws.retire(arg["id"]))


@_command("tether.showNote")
async def show_note(ls: TetherServer, arg: dict):
    ids = arg.get("ids")
    nid = arg.get("id") or (ids[0] if isinstance(ids, list) and ids else None)
    if not isinstance(nid, str):
        raise ValueError("tether.showNote takes {id} or {ids: [id, …]}")
    ws = await ls.run(_ws_of_note, ls, nid)
    note = await ls.run(ws.get, nid)
    await ls.window_show_document_async(T.ShowDocumentParams(uri=ls.note_uri(ws, note.path), take_focus=True))
    return note_json(note)


@_command("tether.acceptCandidate", "id")
async def accept_candidate(ls: TetherServer, arg: dict):
    """A proposed note becomes a note file (or joins the note it repeats, ``merge``);
    ``edit`` opens the new file at its title so the user can finish it."""
    ws = await ls.run(_ws_of_candidate, ls, arg["id"])
    note = await ls.run(capture.accept, ws, arg["id"], arg.get("merge"))
    await ls.notes_changed(ws)
    if arg.get("edit"):
        await ls.window_show_document_async(T.ShowDocumentParams(uri=ls.note_uri(ws, note.path), take_focus=True))
    return note_json(note)


@_command("tether.dismissCandidate", "id")
async def dismiss_candidate(ls: TetherServer, arg: dict):
    ws = await ls.run(_ws_of_candidate, ls, arg["id"])
    c = await ls.run(capture.dismiss, ws, arg["id"])
    await ls.refresh_all(ws)
    return c.to_json()


def _ws_of_candidate(ls: TetherServer, cid: str) -> Workspace:
    return _ws_holding(ls, lambda ws: capture.candidate(ws, cid), f"no proposed note '{cid}' (see `tether review`)")


async def _change_notes(ls: TetherServer, ws: Workspace, work):
    """Run a note-changing core call, then refresh what the editor shows."""
    note = await ls.run(work)
    await ls.notes_changed(ws)
    return note_json(note)


def _ws_of_note(ls: TetherServer, nid: str) -> Workspace:
    return _ws_holding(ls, lambda ws: ws.get(nid), f"no note '{nid}'")


def _ws_holding(ls: TetherServer, find, missing: str) -> Workspace:
    """The served workspace in which ``find(ws)`` finds what a command names."""
    for ws in ls.workspaces.values():
        try:
            find(ws)
            return ws
        except WorkspaceError:
            continue
    raise WorkspaceError(missing)


# -- custom requests for richer clients and agents ----------------------------------------

def _request(fn):
    """A custom request refused (a file outside the served workspaces) is answered with the reason."""
    async def run(ls: TetherServer, params):
        try:
            return await fn(ls, params)
        except WorkspaceError as e:
            raise JsonRpcInvalidParams(str(e)) from None
    run.__name__ = fn.__name__
    return run


@server.feature("tether/notes")
@_request
async def notes_request(ls: TetherServer, params):
    uri = _uri_param("tether/notes", params, required=False)
    if uri:
        ws, rel = _located_ws(ls, uri)

        def work():
            lf = ls.live(uri)
            located = lf.resolve() if lf else ws.locate(rel)
            by_note = {}
            for loc in located:
                by_note.setdefault(loc.note.id, []).append(loc)
            notes = {n.id: n for n in ws.notes_on(rel)}  # and those whose code moved in from another file
            notes.update((loc.note.id, loc.note) for loc in located if loc.path == rel)
            return [note_json(n, by_note.get(nid, [])) for nid, n in sorted(notes.items())]
        return {"notes": await ls.run(work)}
    def every():
        out = []
        for ws in ls.workspaces.values():
            notes = ws.notes()
            located = ws.locate_notes(notes)  # each file read once for all its notes
            out += [note_json(n, located[n.id]) for n in notes]
        return out
    return {"notes": await ls.run(every)}


@server.feature("tether/context")
@_request
async def context_request(ls: TetherServer, params):
    uri = _uri_param("tether/context", params)
    ws, rel = _located_ws(ls, uri)
    try:
        line = _point(params["range"]["start"])[0] if params.get("range") is not None else None
    except (TypeError, KeyError, ValueError) as e:
        raise JsonRpcInvalidParams(f"tether/context: range: {e}") from None

    def work():
        lf = ls.live(uri)
        return context_for(ws, rel, line, text=lf.text if lf else None)
    ctx = await ls.run(work)
    return {"markdown": ctx.to_markdown(), "notes": ctx.to_json()["notes"]}


def _uri_param(method: str, params, required: bool = True) -> str | None:
    uri = params.get("uri") if isinstance(params, dict) else None
    if (uri is None and required) or (uri is not None and not isinstance(uri, str)):
        raise JsonRpcInvalidParams(f"{method}: takes {{uri: string}}, not {params!r:.80}")
    return uri


def main(tcp: str | None = None) -> None:
    logging.basicConfig(level=logging.WARNING, format="tether: %(levelname)s %(message)s")
    if tcp:
        host, _, port = tcp.rpartition(":")
        server.start_tcp(host or "127.0.0.1", int(port))
    else:
        if not serve_stdio(server):
            sys.exit(1)
