// The extension's settings (contributes.configuration in package.json), and the part of them
// the server reads (its initializationOptions / didChangeConfiguration, see settings.py).
import * as vscode from "vscode";

export const SECTION = "tether";

export interface ServerSettings {
    severity: Record<string, string>;
    codeLens: boolean;
    exclude: string[];
}

export function serverCommandSetting(): string[] {
    const value = vscode.workspace.getConfiguration(SECTION).get<unknown>("serverCommand");
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export function serverSettings(): ServerSettings {
    const c = vscode.workspace.getConfiguration(SECTION);
    const severity = c.get<Record<string, string>>("severity") ?? {};
    return {
        severity: Object.fromEntries(Object.entries(severity).filter(([, v]) => typeof v === "string")),
        codeLens: c.get<boolean>("codeLens") ?? true,
        exclude: (c.get<string[]>("exclude") ?? []).filter((g) => typeof g === "string"),
    };
}

/** Whether a configuration change needs a new server process (its command, or tracing, changed). */
export function needsRestart(e: vscode.ConfigurationChangeEvent): boolean {
    return e.affectsConfiguration(`${SECTION}.serverCommand`) || e.affectsConfiguration(`${SECTION}.trace.server`);
}

/** Whether a change is one the running server should be told about. */
export function affectsServer(e: vscode.ConfigurationChangeEvent): boolean {
    return ["severity", "codeLens", "exclude"].some((k) => e.affectsConfiguration(`${SECTION}.${k}`));
}
