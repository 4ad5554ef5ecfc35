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

/** The channel the language client traces to: the "tether" channel, tracing whenever the
 * `tether.trace.server` setting asks for it (vscode-languageclient traces only into a channel
 * whose log level is Trace, which a user would have to set by hand as well). */
export function traceChannel(): vscode.LogOutputChannel {
    const target = logChannel();
    const tracing = () => (vscode.workspace.getConfiguration("tether").get<string>("trace.server") ?? "off") !== "off";
    return new Proxy(target, {
        get(t, prop) {
            if (prop === "logLevel") {
                return tracing() ? vscode.LogLevel.Trace : t.logLevel;
            }
            if (prop === "trace") {
                return (message: string, ...args: unknown[]) => t.info(message, ...args);
            }
            const value = Reflect.get(t, prop, t);
            return typeof value === "function" ? value.bind(t) : value;
        },
    });
}
