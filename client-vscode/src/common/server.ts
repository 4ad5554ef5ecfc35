// The language server's lifecycle: find the command (each step logged), start `tether lsp`
// over stdio, restart after a crash within a budget, and one restart at a time.
import * as vscode from "vscode";
import {
    CloseAction, CodeLensRequest, ErrorAction, ExecuteCommandRequest, LanguageClient, RevealOutputChannelOn, State,
    type LanguageClientOptions, type ServerOptions,
} from "vscode-languageclient/node";
import { CrashBudget } from "../pure/crash";
import type { Note } from "../pure/notes";
import { rewriteRecordCommand, type CommandLike } from "../pure/record";
import { candidates, cliOf, describe, findServer, notFoundMessage, probe, type Candidate } from "../pure/serverCommand";
import { errorText, log, logChannel, logError, traceChannel } from "./log";
import { pythonInterpreter } from "./python";
import { serverCommandSetting, serverSettings } from "./settings";

export const RECORD_AT = "tether.recordAt";

export class Server implements vscode.Disposable {
    private client: LanguageClient | undefined;
    private command: Candidate | undefined;
    private chain: Promise<unknown> = Promise.resolve();
    private readonly budget = new CrashBudget();
    private readonly changed = new vscode.EventEmitter<void>();
    /** Fires when a server started or stopped. */
    readonly onDidChange = this.changed.event;

    /** The running client, if any. */
    get running(): LanguageClient | undefined {
        return this.client?.state === State.Running ? this.client : undefined;
    }

    /** The tether command line of the running server (its command without `lsp`). */
    get cli(): { command: string; args: string[] } | undefined {
        return this.command ? cliOf(this.command) : undefined;
    }

    /** (Re)starts the server; one start at a time, in the order asked. */
    restart(reason: string): Promise<LanguageClient | undefined> {
        const next = this.chain.then(() => this.start(reason));
        this.chain = next.catch(() => undefined);
        return next;
    }

    /** The running client, starting the server first when it is not running (a server being
     * restarted after a crash is waited for, not replaced). */
    async ready(): Promise<LanguageClient | undefined> {
        await this.chain;
        if (this.client) {
            await settled(this.client);
        }
        return this.running ?? await this.restart("a command needs it");
    }

    private async start(reason: string): Promise<LanguageClient | undefined> {
        log(`starting the language server (${reason})`);
        await this.stopClient();
        this.budget.reset();
        const folder = vscode.workspace.workspaceFolders?.[0];
        const setting = serverCommandSetting();
        const python = setting.length ? undefined : await pythonInterpreter(folder?.uri);
        const found = await findServer(candidates(setting, python), (c) => probe(c, folder?.uri.fsPath), log);
        if (!found.found) {
            this.command = undefined;
            this.changed.fire();
            void this.failed(notFoundMessage(found.tried));
            return undefined;
        }
        this.command = found.found;
        const client = new LanguageClient("tether", "tether", this.serverOptions(found.found, folder), this.clientOptions());
        this.client = client;
        client.onDidChangeState(() => this.changed.fire());
        try {
            await client.start();
            log(`the language server is running: ${describe(found.found)}`);
            return client;
        } catch (e) {
            logError("the language server did not start", e);
            this.client = undefined;
            this.changed.fire();
            void this.failed(`tether: the language server did not start: ${describe(found.found)}: ${errorText(e)}`);
            return undefined;
        }
    }

    private serverOptions(c: Candidate, folder: vscode.WorkspaceFolder | undefined): ServerOptions {
        return { command: c.command, args: c.args, options: { cwd: folder?.uri.fsPath, env: { ...process.env, PYTHONIOENCODING: "utf-8" } } };
    }

    private clientOptions(): LanguageClientOptions {
        return {
            documentSelector: [{ scheme: "file" }],
            outputChannel: logChannel(),
            traceOutputChannel: traceChannel(),
            revealOutputChannelOn: RevealOutputChannelOn.Never,
            initializationOptions: () => serverSettings(),
            errorHandler: {
                error: () => ({ action: ErrorAction.Continue }),
                closed: () => this.closed(),
            },
            middleware: {
                // the server's "Record … here" actions open the record flow (see rewriteRecordCommand)
                provideCodeActions: async (document, range, context, token, next) => {
                    const actions = await next(document, range, context, token);
                    // the server answers every kind; VS Code logs a warning for each unasked one
                    const only = context.only;
                    return actions?.filter((a) => !only || !(a instanceof vscode.CodeAction) || !a.kind || only.contains(a.kind)).map((a) => {
                        if (a instanceof vscode.CodeAction) {
                            if (a.command) {
                                a.command = rewriteRecordCommand(a.command as CommandLike, RECORD_AT) as vscode.Command;
                            }
                            return a;
                        }
                        return rewriteRecordCommand(a as CommandLike, RECORD_AT) as vscode.Command;
                    });
                },
            },
        };
    }

    private closed() {
        if (this.budget.crashed()) {
            log(`the language server stopped unexpectedly; restarting it (${this.budget.recent} of at most ${this.budget.max} restarts in 3 minutes)`);
            return { action: CloseAction.Restart, handled: true };
        }
        const message = `tether: the language server stopped ${this.budget.recent} times in 3 minutes and was not restarted.`;
        logError(message);
        void vscode.window.showErrorMessage(message, "Restart Server", "Show Log").then((pick) => {
            if (pick === "Restart Server") {
                void this.restart("restart after crashes");
            } else if (pick === "Show Log") {
                logChannel().show(true);
            }
        });
        return { action: CloseAction.DoNotRestart, handled: true };
    }

    private async failed(message: string): Promise<void> {
        logError(message);
        const pick = await vscode.window.showErrorMessage(message, "Open Settings", "Show Log");
        if (pick === "Open Settings") {
            await vscode.commands.executeCommand("workbench.action.openSettings", "tether.serverCommand");
        } else if (pick === "Show Log") {
            logChannel().show(true);
        }
    }

    private async stopClient(): Promise<void> {
        const client = this.client;
        this.client = undefined;
        if (client) {
            await settled(client);
            if (client.state === State.Running) {
                try {
                    await client.stop(5000);
                } catch (e) {
                    logError("stopping the language server", e);
                }
            }
            await client.dispose().catch(() => undefined);
            this.changed.fire();
        }
    }

    /** Asks VS Code for the visible editors' code lenses again (notes were added or changed:
     * the server refreshes lenses only when note files change on disk). */
    refreshCodeLenses(): void {
        const feature = this.running?.getFeature(CodeLensRequest.method);
        for (const editor of vscode.window.visibleTextEditors) {
            feature?.getProvider(editor.document)?.onDidChangeCodeLensEmitter.fire();
        }
    }

    /** Tells the running server about changed settings. */
    async settingsChanged(): Promise<void> {
        await this.running?.sendNotification("workspace/didChangeConfiguration", { settings: { tether: serverSettings() } });
        this.refreshCodeLenses();
    }

    // -- what the extension asks the server -------------------------------------------------

    /** `workspace/executeCommand`; the server reports a refused command itself (showMessage) and answers null. */
    async execute<T>(client: LanguageClient, command: string, arg: Record<string, unknown>): Promise<T | null> {
        return await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [arg] }) as T | null;
    }

    /** `tether/notes`: the notes of a file with their anchors resolved, or every note. */
    async notes(client: LanguageClient, uri?: vscode.Uri): Promise<Note[]> {
        const params = uri ? { uri: client.code2ProtocolConverter.asUri(uri) } : {};
        const answer = await client.sendRequest<{ notes: Note[] }>("tether/notes", params);
        return answer?.notes ?? [];
    }

    /** `tether/context`: the notes for agents, as Markdown. */
    async context(client: LanguageClient, uri: vscode.Uri, line?: number): Promise<{ markdown: string; notes: Note[] }> {
        const params: Record<string, unknown> = { uri: client.code2ProtocolConverter.asUri(uri) };
        if (line !== undefined) {
            params.range = { start: { line, character: 0 }, end: { line, character: 0 } };
        }
        return await client.sendRequest("tether/context", params);
    }

    async dispose(): Promise<void> {
        await this.stopClient();
        this.changed.dispose();
    }
}

/** Resolves once the client is not starting any more (running, or stopped), or after `timeoutMs`. */
function settled(client: LanguageClient, timeoutMs = 30_000): Promise<void> {
    if (client.state !== State.Starting) {
        return Promise.resolve();
    }
    return new Promise((resolve) => {
        const done = () => {
            clearTimeout(timer);
            sub.dispose();
            resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        const sub = client.onDidChangeState((e) => { if (e.newState !== State.Starting) done(); });
    });
}
