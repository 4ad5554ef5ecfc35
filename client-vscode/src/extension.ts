// Wiring only: the server, the record flow, the notes view, the status bar and the agent
// commands live in src/common/; what they compute without VS Code lives in src/pure/.
import * as vscode from "vscode";
import { KINDS, type Kind } from "./pure/notes";
import { tetherRoot } from "./pure/paths";
import { copyAgentContext, setUpAgents } from "./common/agents";
import { log, logChannel } from "./common/log";
import { NotesView } from "./common/notesView";
import { onInterpreterChanged } from "./common/python";
import { Recorder } from "./common/record";
import { RECORD_AT, Server } from "./common/server";
import { affectsServer, needsRestart, serverCommandSetting } from "./common/settings";
import { StatusBar } from "./common/statusBar";

let server: Server | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    server = new Server();
    const srv = server;
    const view = new NotesView(srv);
    const status = new StatusBar(view);
    // the file's notes soon; the whole workspace (file by file) a little later, once per burst
    const refreshFile = debounce(() => { srv.refreshCodeLenses(); void view.refreshFile(); }, 300);
    const refreshWorkspace = debounce(() => void view.refreshWorkspace(), 1500);
    const refreshAll = () => { refreshFile(); refreshWorkspace(); };
    const recorder = new Recorder(srv, context.workspaceState, () => refreshAll());
    context.subscriptions.push(srv, view, status, logChannel());

    const command = (id: string, fn: (...args: any[]) => unknown) =>
        context.subscriptions.push(vscode.commands.registerCommand(id, fn));
    command("tether.restartServer", () => srv.restart("tether: Restart Server"));
    command("tether.showLog", () => logChannel().show());
    for (const kind of KINDS) {
        command(`tether.record${kind[0].toUpperCase()}${kind.slice(1)}`, () => recorder.recordHere(kind as Kind));
    }
    command(RECORD_AT, (arg) => recorder.recordAt(arg));
    command("tether.copyAgentContext", () => copyAgentContext(srv));
    command("tether.setUpAgents", () => setUpAgents(srv));
    command("tether.notes.refresh", () => { srv.refreshCodeLenses(); return Promise.all([view.refreshFile(), view.refreshWorkspace()]); });
    command("tether.notes.reveal", (item) => view.reveal(item));
    command("tether.notes.openNoteFile", (item) => view.openNoteFile(item));
    command("tether.notes.confirm", (item) => view.confirm(item));
    command("tether.notes.retire", (item) => view.retire(item));

    const watcher = vscode.workspace.createFileSystemWatcher("**/.tether/notes/*.md");
    context.subscriptions.push(
        watcher,
        watcher.onDidCreate(refreshAll), watcher.onDidChange(refreshAll), watcher.onDidDelete(refreshAll),
        vscode.window.onDidChangeActiveTextEditor(() => view.refreshFileSoon(50)),
        vscode.workspace.onDidChangeTextDocument((e) => {
            if (e.document === vscode.window.activeTextEditor?.document && e.contentChanges.length) view.refreshFileSoon(500);
        }),
        vscode.workspace.onDidSaveTextDocument(() => refreshAll()),
        vscode.languages.onDidChangeDiagnostics(() => status.update()),
        view.onDidChangeFile(() => status.update()),
        srv.onDidChange(() => { if (srv.running) refreshAll(); else status.update(); }),
        vscode.workspace.onDidChangeConfiguration((e) => {
            if (needsRestart(e)) void srv.restart("the settings tether.serverCommand or tether.trace.server changed");
            else if (affectsServer(e)) void srv.settingsChanged();
        }),
        vscode.workspace.onDidChangeWorkspaceFolders(() => { if (!srv.running && hasTether()) void srv.restart("a folder with .tether/ was added"); }),
    );
    const pythonChanged = await onInterpreterChanged(() => {
        if (!serverCommandSetting().length && srv.running) void srv.restart("the Python interpreter changed");
    });
    if (pythonChanged) context.subscriptions.push(pythonChanged);

    if (hasTether()) {
        await srv.restart("a workspace folder has .tether/");
    } else {
        log("no .tether/ in the workspace folders: the server starts when a tether command is run");
    }
}

export async function deactivate(): Promise<void> {
    await server?.dispose();
    server = undefined;
}

function hasTether(): boolean {
    return (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme === "file" && tetherRoot(f.uri.fsPath) !== undefined);
}

function debounce(fn: () => void, ms: number): () => void {
    let t: NodeJS.Timeout | undefined;
    return () => {
        clearTimeout(t);
        t = setTimeout(fn, ms);
    };
}
