// The interpreter chosen in the Python extension (ms-python.python), when it is installed.
import * as vscode from "vscode";
import { log, logError } from "./log";

interface EnvironmentPath { id: string; path: string }
interface PythonApi {
    environments: {
        getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
        resolveEnvironment(env: EnvironmentPath | string): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
        onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
    };
}

const PYTHON_EXTENSION = "ms-python.python";

async function api(): Promise<PythonApi | undefined> {
    const ext = vscode.extensions.getExtension<PythonApi>(PYTHON_EXTENSION);
    if (!ext) {
        return undefined;
    }
    try {
        const exports = ext.isActive ? ext.exports : await ext.activate();
        return exports?.environments ? exports : undefined;
    } catch (e) {
        logError("the Python extension did not activate", e);
        return undefined;
    }
}

/** The chosen interpreter's executable, or undefined (no Python extension, nothing chosen). */
export async function pythonInterpreter(resource?: vscode.Uri): Promise<string | undefined> {
    const py = await api();
    if (!py) {
        log("Python extension: not installed");
        return undefined;
    }
    try {
        const env = await py.environments.resolveEnvironment(py.environments.getActiveEnvironmentPath(resource));
        const exe = env?.executable.uri?.fsPath;
        log(`Python extension: interpreter ${exe ?? "(none chosen)"}`);
        return exe;
    } catch (e) {
        logError("Python extension: could not resolve the interpreter", e);
        return undefined;
    }
}

/** Calls `listener` when the user picks another interpreter. */
export async function onInterpreterChanged(listener: () => void): Promise<vscode.Disposable | undefined> {
    const py = await api();
    return py?.environments.onDidChangeActiveEnvironmentPath(() => listener());
}
