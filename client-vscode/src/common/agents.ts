// Handing notes to agents: the file's context on the clipboard (`tether/context`), and
// `tether init --agents` (MCP entries, agent hooks, rule files) in a workspace folder.
import { execFile } from "node:child_process";
import * as vscode from "vscode";
import { plural } from "../pure/notes";
import { errorText, log, logChannel, logError } from "./log";
import type { Server } from "./server";

export async function copyAgentContext(server: Server): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.uri.scheme !== "file") {
        void vscode.window.showErrorMessage("tether: open a file first; its notes are what gets copied.");
        return;
    }
    const client = await server.ready();
    if (!client) {
        return;
    }
    try {
        const ctx = await server.context(client, editor.document.uri);
        await vscode.env.clipboard.writeText(ctx.markdown);
        const name = vscode.workspace.asRelativePath(editor.document.uri);
        void vscode.window.showInformationMessage(`tether: copied the agent context for ${name} (${plural(ctx.notes.length, "note")}) to the clipboard.`);
    } catch (e) {
        logError("tether/context", e);
        void vscode.window.showErrorMessage(`tether: no agent context for this file: ${errorText(e)}`);
    }
}

export async function setUpAgents(server: Server): Promise<void> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const folder = folders.length > 1 ? await vscode.window.showWorkspaceFolderPick({ placeHolder: "Set up agents in which folder?" }) : folders[0];
    if (!folder) {
        if (!folders.length) void vscode.window.showErrorMessage("tether: open a folder first.");
        return;
    }
    await server.ready();
    const cli = server.cli;
    if (!cli) {
        void vscode.window.showErrorMessage("tether: no tether command line to run: tether.serverCommand does not end in `lsp`, or no server was found.", "Open Settings")
            .then((c) => { if (c) void vscode.commands.executeCommand("workbench.action.openSettings", "tether.serverCommand"); });
        return;
    }
    const args = [...cli.args, "init", "--agents"];
    log(`running ${[cli.command, ...args].join(" ")} in ${folder.uri.fsPath}`);
    const result = await new Promise<{ ok: boolean; out: string }>((resolve) => {
        execFile(cli.command, args, { cwd: folder.uri.fsPath, timeout: 120_000 }, (err, stdout, stderr) => {
            resolve({ ok: !err, out: `${stdout}${stderr}`.trim() || (err ? err.message : "") });
        });
    });
    for (const line of result.out.split("\n").filter(Boolean)) {
        log(`  ${line}`);
    }
    if (result.ok) {
        void vscode.window.showInformationMessage(`tether: agents set up in ${folder.name} (MCP server, hooks and rule files; see the log for the files written).`, "Show Log")
            .then((c) => { if (c) logChannel().show(true); });
    } else {
        void vscode.window.showErrorMessage(`tether: tether init --agents failed: ${result.out.split("\n").slice(-1)[0]}`, "Show Log")
            .then((c) => { if (c) logChannel().show(true); });
    }
}
