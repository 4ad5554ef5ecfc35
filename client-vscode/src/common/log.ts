// The one "tether" output channel: the client's own steps and the server's stderr and traces.
import * as vscode from "vscode";

let channel: vscode.LogOutputChannel | undefined;

export function logChannel(): vscode.LogOutputChannel {
    channel ??= vscode.window.createOutputChannel("tether", { log: true });
    return channel;
}

export function log(line: string): void {
    logChannel().info(line);
}

export function logError(line: string, error?: unknown): void {
    logChannel().error(error === undefined ? line : `${line}: ${errorText(error)}`);
}

export function errorText(error: unknown): string {
    if (error instanceof Error) {
        return error.message;
    }
    if (error && typeof error === "object" && "message" in error) {
        return String((error as { message: unknown }).message);
    }
    return String(error);
}
