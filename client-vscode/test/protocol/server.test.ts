// The real Python server (`python -m tether lsp`) over stdio, driven with the JSON-RPC stack VS
// Code's language client uses (vscode-languageserver-protocol/node): what the extension sends
// and what it relies on in the answers. TETHER_PYTHON names the interpreter (default python3).
import { strict as assert } from "node:assert";
import { ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import {
    CodeActionRequest, createProtocolConnection, DidChangeTextDocumentNotification,
    DidOpenTextDocumentNotification, ExecuteCommandRequest, ExitNotification, HoverRequest,
    InitializedNotification, InitializeRequest, ProtocolConnection, PublishDiagnosticsNotification, ShutdownRequest,
    StreamMessageReader, StreamMessageWriter, type Diagnostic, type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { lostAnchors, resolved, type Note } from "../../src/pure/notes";
import { makeCheck, recordArguments, rewriteRecordCommand, emptyDraft, type Check } from "../../src/pure/record";

const PYTHON = process.env.TETHER_PYTHON || "python3";
/** examples/shop of this checkout (the test runs bundled from out/test/protocol/). */
const SHOP = (() => {
    for (let dir = __dirname; dir !== resolve(dir, ".."); dir = resolve(dir, "..")) {
        if (existsSync(join(dir, "examples", "shop", ".tether"))) {
            return join(dir, "examples", "shop");
        }
    }
    throw new Error(`no examples/shop above ${__dirname}`);
})();
const WAIT_MS = 15000;

let proc: ChildProcess;
let conn: ProtocolConnection;
let root: string;
let stderr = "";
const published = new Map<string, Diagnostic[]>();
const waiters: (() => void)[] = [];
const shown: string[] = [];

const uriOf = (rel: string) => pathToFileURL(join(root, rel)).href;

async function until<T>(what: string, get: () => T | undefined | false): Promise<T> {
    const end = Date.now() + WAIT_MS;
    for (;;) {
        const v = get();
        if (v) {
            return v;
        }
        if (Date.now() > end) {
            throw new Error(`timed out waiting for ${what}\n--- server stderr ---\n${stderr}`);
        }
        await new Promise<void>((r) => { waiters.push(r); setTimeout(r, 100); });
    }
}

function run(cmd: string, args: string[]) {
    execFileSync(cmd, args, { cwd: root, stdio: "pipe", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
}

before(async () => {
    root = mkdtempSync(join(tmpdir(), "tether-protocol-"));
    cpSync(SHOP, root, { recursive: true, filter: (src) => !src.includes(`${join(".tether", "cache")}`) });
    run("git", ["init", "-q"]);
    run("git", ["config", "user.name", "Ada Lovelace"]);
    run("git", ["config", "user.email", "ada@example.com"]);
    run("git", ["add", "-A"]);
    run("git", ["commit", "-q", "-m", "shop"]);

    proc = spawn(PYTHON, ["-m", "tether", "lsp"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
    proc.stderr!.on("data", (d: Buffer) => { stderr += d.toString(); });
    conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    conn.onNotification(PublishDiagnosticsNotification.type, (p: PublishDiagnosticsParams) => {
        published.set(p.uri, p.diagnostics);
        waiters.splice(0).forEach((w) => w());
    });
    conn.onNotification("window/showMessage", (p: { message: string }) => { shown.push(p.message); });
    conn.onRequest("client/registerCapability", () => null);
    conn.onRequest("window/workDoneProgress/create", () => null);
    conn.onRequest("workspace/codeLens/refresh", () => null);
    conn.onRequest("window/showDocument", () => ({ success: true }));
    conn.listen();

    const init = await conn.sendRequest(InitializeRequest.type, {
        processId: process.pid, rootUri: pathToFileURL(root).href,
        workspaceFolders: [{ uri: pathToFileURL(root).href, name: "shop" }],
        initializationOptions: { severity: {}, codeLens: true, exclude: [] },
        capabilities: {
            workspace: { workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
            window: { showDocument: { support: true } },
            textDocument: { hover: { contentFormat: ["markdown", "plaintext"] }, publishDiagnostics: { relatedInformation: true } },
        },
    });
    const commands = init.capabilities.executeCommandProvider?.commands ?? [];
    for (const c of ["tether.record", "tether.confirm", "tether.retire", "tether.showNote"]) {
        assert.ok(commands.includes(c), `the server registers ${c}: ${commands.join(", ")}`);
    }
    await conn.sendNotification(InitializedNotification.type, {});
});

after(async () => {
    if (conn) {
        await Promise.race([conn.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 3000))]);
        await conn.sendNotification(ExitNotification.type);
        conn.dispose();
    }
    await new Promise((r) => setTimeout(r, 200));
    proc?.kill();
    rmSync(root, { recursive: true, force: true });
});

describe("the tether language server, as the extension uses it", () => {
    let text: string;
    const charge = () => uriOf("billing/charge.py");
    const record = (arg: Record<string, unknown>) =>
        conn.sendRequest(ExecuteCommandRequest.type, { command: "tether.record", arguments: [arg] }) as Promise<Note | null>;

    it("didOpen publishes diagnostics and hover shows the note on the code", async () => {
        text = readFileSync(join(root, "billing/charge.py"), "utf8");
        await conn.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri: charge(), languageId: "python", version: 1, text } });
        await until("diagnostics for charge.py", () => published.has(charge()));
        const line = text.split("\n").findIndex((l) => l.startsWith("def submit_with_retry"));
        const hover = await conn.sendRequest(HoverRequest.type, { textDocument: { uri: charge() }, position: { line, character: 6 } });
        const md = JSON.stringify(hover?.contents);
        assert.match(md, /Retry the gateway with a blocking sleep/);
    });

    it("tether.record with the flow's arguments records a decision with its rejected options", async () => {
        const line = text.split("\n").findIndex((l) => l.startsWith("def charge"));
        const draft = emptyDraft("decision", { uri: charge(), range: { start: { line, character: 4 }, end: { line, character: 4 } }, how: "symbol", label: "" });
        draft.title = "Charges go through the ledger";
        draft.rationale = "Every money movement must be auditable.";
        draft.alternatives = [{ option: "call the gateway directly", rejected_because: "no audit trail" }];
        const note = await record(recordArguments(draft));
        assert.ok(note, `recorded (server said: ${shown.join(" | ")})`);
        assert.equal(note.kind, "decision");
        assert.equal(note.title, "Charges go through the ledger");
        assert.deepEqual(note.alternatives, [{ option: "call the gateway directly", rejected_because: "no audit trail" }]);
        assert.equal(note.anchors[0].name, "charge");
        const file = readFileSync(join(root, note.file), "utf8");
        assert.match(file, /rationale = "Every money movement must be auditable."/);
        const hover = await conn.sendRequest(HoverRequest.type, { textDocument: { uri: charge() }, position: { line, character: 5 } });
        const md = JSON.stringify(hover?.contents);
        assert.match(md, /Charges go through the ledger/);
        assert.match(md, /call the gateway directly/);
    });

    it("an invariant recorded with a check reports a violation typed into its code", async () => {
        const line = text.split("\n").findIndex((l) => l.startsWith("def charge"));
        const draft = emptyDraft("invariant", { uri: charge(), range: { start: { line, character: 4 }, end: { line, character: 4 } }, how: "symbol", label: "" });
        draft.title = "charge() never sleeps";
        draft.checks = [makeCheck("forbid-call", "time.sleep") as Check];
        const note = await record(recordArguments(draft));
        assert.ok(note, `recorded (server said: ${shown.join(" | ")})`);
        const path = join(root, note.file);
        const saved = readFileSync(path, "utf8");
        assert.match(saved, /^\[\[checks\]\]$/m, "the server stores the invariant's checks");
        // type a blocking sleep at the top of charge()'s body
        const body = line + 1;
        await conn.sendNotification(DidChangeTextDocumentNotification.type, {
            textDocument: { uri: charge(), version: 2 },
            contentChanges: [{ range: { start: { line: body, character: 0 }, end: { line: body, character: 0 } }, text: "    time.sleep(1)\n" }],
        });
        const violation = await until("an invariant-violation diagnostic", () =>
            (published.get(charge()) ?? []).find((d) => d.code === "invariant-violation"));
        assert.equal(violation.range.start.line, body);
        assert.equal(violation.source, "tether");
        assert.ok((violation.data as { note: string }).note === note.id);

        const actions = await conn.sendRequest(CodeActionRequest.type, {
            textDocument: { uri: charge() }, range: violation.range, context: { diagnostics: [violation] } });
        const titles = (actions ?? []).map((a) => a.title);
        assert.ok(titles.includes("Record decision here"), titles.join(", "));
        assert.ok(titles.includes("Ignore this once (a reviewed exception)"), titles.join(", "));
        const recordAction = (actions ?? []).find((a) => a.title === "Record decision here")!;
        const cmd = "command" in recordAction && typeof recordAction.command === "object" ? recordAction.command : undefined;
        assert.equal(cmd?.command, "tether.record");
        const own = rewriteRecordCommand(cmd!, "tether.recordAt");
        assert.equal(own.command, "tether.recordAt");
        assert.deepEqual(own.arguments, [{ uri: charge(), range: violation.range, kind: "decision" }]);
    });

    it("tether/context hands over the file's notes as Markdown", async () => {
        const ctx = await conn.sendRequest("tether/context", { uri: charge() }) as { markdown: string; notes: Note[] };
        assert.match(ctx.markdown, /Charges go through the ledger/);
        assert.match(ctx.markdown, /Retry the gateway with a blocking sleep/);
        assert.ok(ctx.notes.some((n) => n.title === "charge() never sleeps"));
    });

    it("tether/notes gives the file's notes with anchor states, and every note without a uri", async () => {
        const mine = (await conn.sendRequest("tether/notes", { uri: charge() }) as { notes: Note[] }).notes;
        const titles = mine.map((n) => n.title).sort();
        assert.deepEqual(titles, ["Charges go through the ledger", "Retry the gateway with a blocking sleep",
            "Zero and negative charges are refused here", "charge() never sleeps", "billing/ owns money movement"].sort());
        assert.ok(resolved(mine));
        const all = (await conn.sendRequest("tether/notes", {}) as { notes: Note[] }).notes;
        assert.ok(all.length >= 9, `all notes: ${all.length}`);
        assert.ok(all.some((n) => n.file.startsWith(".tether/notes/")));
    });

    it("code deleted in the editor leaves its note orphaned in tether/notes", async () => {
        const lines = readFileSync(join(root, "billing/charge.py"), "utf8").split("\n");
        const start = lines.findIndex((l) => l.startsWith("def submit_with_retry"));
        const end = lines.findIndex((l, i) => i > start && l.startsWith("def "));
        await conn.sendNotification(DidChangeTextDocumentNotification.type, {
            textDocument: { uri: charge(), version: 3 },
            contentChanges: [{ range: { start: { line: start + 1, character: 0 }, end: { line: end, character: 0 } }, text: "" }],
        });
        const notes = (await conn.sendRequest("tether/notes", { uri: charge() }) as { notes: Note[] }).notes;
        const lost = lostAnchors(notes);
        assert.deepEqual(lost.map((l) => [l.note.title, l.anchor.state]), [["Retry the gateway with a blocking sleep", "orphaned"]]);
    });

    it("tether/notes for a file that is gone resolves its anchors as lost", async () => {
        const go = "inventory/stock.go";
        rmSync(join(root, go));
        const notes = (await conn.sendRequest("tether/notes", { uri: uriOf(go) }) as { notes: Note[] }).notes;
        assert.ok(notes.length > 0);
        assert.ok(lostAnchors(notes).length > 0, JSON.stringify(notes.map((n) => n.anchors)));
    });

    it("tether.retire and tether.confirm change the note file", async () => {
        const all = (await conn.sendRequest("tether/notes", {}) as { notes: Note[] }).notes;
        const inv = all.find((n) => n.title === "The ledger is append-only")!;
        const confirmed = await conn.sendRequest(ExecuteCommandRequest.type, { command: "tether.confirm", arguments: [{ id: inv.id }] }) as Note;
        assert.equal(confirmed.id, inv.id);
        const retired = await conn.sendRequest(ExecuteCommandRequest.type, { command: "tether.retire", arguments: [{ id: inv.id }] }) as Note;
        assert.equal(retired.status, "retired");
        assert.match(readFileSync(join(root, inv.file), "utf8"), /status = "retired"/);
        assert.ok(existsSync(join(root, inv.file)));
    });
});
