"""Helpers for the language server's end-to-end tests (tests/test_lsp.py): a pytest-lsp
client that decodes what tether sends the way an editor would, workspaces built on disk
(a git repository with ``.tether/``), and waiting for what the server publishes."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import typing
from pathlib import Path

from lsprotocol import types as T
from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage, default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from tether.core.workspace import Workspace

SHOP = Path(__file__).resolve().parent.parent / "examples" / "shop"
AUTHOR, EMAIL = "Test Author", "test@example.com"
WAIT = 10.0  # seconds to wait for something the server publishes


# -- the client ------------------------------------------------------------------------------

def _client_converter():
    """Custom requests (tether/notes, tether/context) come back as plain dicts, and a
    CodeAction carrying a command is decoded as a CodeAction (lsprotocol 2025 decodes it as
    ``Command(command="{...}")`` otherwise; see shared/STACK-NOTES.md)."""
    c = default_converter()
    for cls in (JsonRPCRequestMessage, JsonRPCResponseMessage, JsonRPCNotification):
        c.register_structure_hook(cls, lambda obj, cls: cls(**obj))

    def command_or_action(obj, _):
        if isinstance(obj, dict) and isinstance(obj.get("command"), str):
            return c.structure(obj, T.Command)
        return c.structure(obj, T.CodeAction)
    c.register_structure_hook(typing.Union[T.Command, T.CodeAction], command_or_action)
    return c


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=_client_converter)
    register_lsp_features(client, {m: f for m, f in DEFAULT_CLIENT_FEATURES.items()
                                   if m not in (T.WINDOW_SHOW_DOCUMENT, T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)})
    client.publishes = []  # every publishDiagnostics, in order: (uri, diagnostics)

    @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish_diagnostics(ls: LanguageClient, params: T.PublishDiagnosticsParams):
        ls.diagnostics[params.uri] = params.diagnostics
        ls.publishes.append((params.uri, params.diagnostics))

    client.registrations = []  # what the server registered dynamically (file watchers)

    @client.feature(T.CLIENT_REGISTER_CAPABILITY)
    def register_capability(ls: LanguageClient, params: T.RegistrationParams):
        ls.registrations.extend(params.registrations)

    @client.feature(T.WINDOW_SHOW_DOCUMENT)
    def show_document(ls: LanguageClient, params: T.ShowDocumentParams) -> T.ShowDocumentResult:
        ls.shown_documents.append(params)
        return T.ShowDocumentResult(success=True)

    return client


CONFIG = ClientServerConfig(server_command=[sys.executable, "-m", "tether", "lsp"], client_factory=make_client)


def capabilities(watch: bool = True) -> T.ClientCapabilities:
    """What an editor like VS Code advertises; ``watch``: it watches files for the server
    (dynamically registered), so the server hears of note files changed on disk."""
    return T.ClientCapabilities(
        window=T.WindowClientCapabilities(show_document=T.ShowDocumentClientCapabilities(support=True)),
        workspace=T.WorkspaceClientCapabilities(
            workspace_folders=True, configuration=False,
            did_change_watched_files=T.DidChangeWatchedFilesClientCapabilities(dynamic_registration=watch),
            file_operations=T.FileOperationClientCapabilities(will_rename=True, did_rename=True)),
        text_document=T.TextDocumentClientCapabilities(
            hover=T.HoverClientCapabilities(content_format=[T.MarkupKind.Markdown, T.MarkupKind.PlainText]),
            code_action=T.CodeActionClientCapabilities(),
            code_lens=T.CodeLensClientCapabilities(),
            publish_diagnostics=T.PublishDiagnosticsClientCapabilities(related_information=True),
        ),
    )


async def start(client: LanguageClient, *roots: Path, options=None, watch: bool = True) -> None:
    folders = [T.WorkspaceFolder(r.as_uri(), r.name) for r in roots]
    await client.initialize_session(T.InitializeParams(
        capabilities=capabilities(watch), root_uri=roots[0].as_uri() if roots else None,
        workspace_folders=folders, initialization_options=options))
    if watch:  # the server registers its file watchers in response to `initialized`
        await wait_for(lambda: client.registrations, "client/registerCapability for file watchers")


# -- workspaces on disk ---------------------------------------------------------------------

def git_repo(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for args in (["init", "-q"], ["config", "user.name", AUTHOR], ["config", "user.email", EMAIL],
                 ["config", "commit.gpgsign", "false"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    return root


def make_ws(root: Path, files: dict[str, str]) -> Workspace:
    """A git repository with ``files`` and an empty ``.tether/``."""
    git_repo(root)
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    ws, _ = Workspace.init(root, exact=True)
    return ws


def shop_ws(root: Path) -> Path:
    shutil.copytree(SHOP, root)
    shutil.rmtree(root / ".tether" / "cache", ignore_errors=True)
    git_repo(root)
    return root


def line_of(text: str, needle: str) -> int:
    """0-based line of the first line containing ``needle``."""
    for i, s in enumerate(text.split("\n")):
        if needle in s:
            return i
    raise AssertionError(f"{needle!r} not in the text")


def pos_of(text: str, needle: str, offset: int = 0) -> T.Position:
    """LSP position (UTF-16 column) of ``needle`` (+ ``offset`` characters into it)."""
    line = line_of(text, needle)
    s = text.split("\n")[line]
    prefix = s[:s.index(needle) + offset]
    return T.Position(line, len(prefix.encode("utf-16-le")) // 2)


# -- talking to the server -----------------------------------------------------------------

def open_doc(client: LanguageClient, path: Path, text: str | None = None, lang: str = "python") -> str:
    uri = path.as_uri()
    client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(
        uri, lang, 1, path.read_text(encoding="utf-8") if text is None else text)))
    return uri


def change(client: LanguageClient, uri: str, version: int, *edits) -> None:
    """One didChange with several content changes: (start_line, start_col, end_line, end_col, text)."""
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        T.VersionedTextDocumentIdentifier(version=version, uri=uri),
        [T.TextDocumentContentChangePartial(range=T.Range(T.Position(a, b), T.Position(c, d)), text=t)
         for a, b, c, d, t in edits]))


async def hover(client: LanguageClient, uri: str, line: int, col: int) -> T.Hover | None:
    return await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri), T.Position(line, col)))


async def wait_for(pred, what: str, timeout: float = WAIT):
    """Poll ``pred()`` until it is truthy (and return it)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        v = pred()
        if v:
            return v
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def wait_diags(client: LanguageClient, uri: str, pred, what: str = "diagnostics", timeout: float = WAIT):
    """Wait until the diagnostics last published for ``uri`` satisfy ``pred``; return them."""
    try:
        await wait_for(lambda: uri in client.diagnostics and pred(list(client.diagnostics[uri])), what, timeout)
    except AssertionError:
        raise AssertionError(f"timed out waiting for {what} on {uri}; last published: "
                             f"{client.diagnostics.get(uri)!r}") from None
    return list(client.diagnostics[uri])


async def next_publish(client: LanguageClient, uri: str, since: int, timeout: float = WAIT):
    """The diagnostics of the first publish for ``uri`` after ``client.publishes[since]``."""
    def found():
        return next((d for u, d in client.publishes[since:] if u == uri), None)
    await wait_for(lambda: found() is not None, f"a publishDiagnostics for {uri}", timeout)
    return list(found())


def codes(diags) -> list[str]:
    return [d.code for d in diags]


async def request(client: LanguageClient, method: str, params: dict):
    return await asyncio.wait_for(client.protocol.send_request_async(method, params), WAIT)


async def execute(client: LanguageClient, command: T.Command):
    return await asyncio.wait_for(client.workspace_execute_command_async(
        T.ExecuteCommandParams(command=command.command, arguments=list(command.arguments or []))), WAIT)


async def code_actions(client: LanguageClient, uri: str, line: int, col: int, diagnostics=()) -> list:
    return await client.text_document_code_action_async(T.CodeActionParams(
        T.TextDocumentIdentifier(uri), T.Range(T.Position(line, col), T.Position(line, col)),
        T.CodeActionContext(diagnostics=list(diagnostics))))
