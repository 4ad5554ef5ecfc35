// Which command starts `tether lsp`: the search order, each step logged (like ruff-vscode's).
// No vscode import: the caller passes the setting and the Python extension's interpreter.
import { execFile } from "node:child_process";

export interface Candidate {
    /** where this command came from, for the log and the error message */
    source: "setting" | "python" | "path" | "python3";
    command: string;
    args: string[];
}

export interface Tried {
    candidate: Candidate;
    error: string;
}

export interface Found {
    found?: Candidate;
    tried: Tried[];
}

/** The commands to try, in order. A non-empty setting is the only candidate: a command the
 * user chose is never silently replaced by another one. */
export function candidates(setting: readonly string[] | undefined, pythonInterpreter: string | undefined): Candidate[] {
    const chosen = (setting ?? []).filter((s) => typeof s === "string" && s.trim() !== "");
    if (chosen.length > 0) {
        return [{ source: "setting", command: chosen[0], args: chosen.slice(1) }];
    }
    const out: Candidate[] = [];
    if (pythonInterpreter) {
        out.push({ source: "python", command: pythonInterpreter, args: ["-m", "tether", "lsp"] });
    }
    out.push({ source: "path", command: "tether", args: ["lsp"] });
    out.push({ source: "python3", command: "python3", args: ["-m", "tether", "lsp"] });
    return out;
}

/** The same tether, as a command-line tool: the server command without its last word `lsp`. */
export function cliOf(c: Candidate): { command: string; args: string[] } | undefined {
    if (c.args.length > 0 && c.args[c.args.length - 1] === "lsp") {
        return { command: c.command, args: c.args.slice(0, -1) };
    }
    return undefined;
}

export function describe(c: Candidate): string {
    const where = {
        setting: "the tether.serverCommand setting",
        python: "the interpreter chosen in the Python extension",
        path: "tether on PATH",
        python3: "python3 on PATH",
    }[c.source];
    return `${[c.command, ...c.args].join(" ")} (${where})`;
}

/** Runs `<cli> --version`: resolves to undefined when it printed tether's version, else to
 * the reason it did not. A command that does not end in `lsp` cannot be probed and is taken
 * as it is (it fails loudly when started if it is wrong). */
export function probe(c: Candidate, cwd?: string, timeoutMs = 20000): Promise<string | undefined> {
    const cli = cliOf(c);
    if (!cli) {
        return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
        execFile(cli.command, [...cli.args, "--version"], { cwd, timeout: timeoutMs, windowsHide: true },
            (err, stdout, stderr) => {
                if (err) {
                    const code = (err as NodeJS.ErrnoException).code;
                    if (code === "ENOENT") {
                        resolve(`${cli.command}: not found`);
                    } else if (err.killed) {
                        resolve(`no answer within ${timeoutMs / 1000} s`);
                    } else {
                        const why = (stderr || stdout || err.message).trim().split("\n").slice(-1)[0];
                        resolve(why || `exit code ${String(code)}`);
                    }
                } else if (!/^tether\b/.test(stdout.trim())) {
                    resolve(`printed '${stdout.trim().slice(0, 80)}', not tether's version`);
                } else {
                    resolve(undefined);
                }
            });
    });
}

/** Tries each candidate in order and returns the first that works, with what was tried. */
export async function findServer(cands: Candidate[], check: (c: Candidate) => Promise<string | undefined>,
                                 log: (line: string) => void = () => undefined): Promise<Found> {
    const tried: Tried[] = [];
    for (const c of cands) {
        const error = await check(c);
        if (error === undefined) {
            log(`server command: ${describe(c)}`);
            return { found: c, tried };
        }
        log(`server command: ${describe(c)} does not work: ${error}`);
        tried.push({ candidate: c, error });
    }
    return { tried };
}

/** One message that says what was tried and how to fix it. */
export function notFoundMessage(tried: Tried[]): string {
    if (tried.length === 1 && tried[0].candidate.source === "setting") {
        return `tether: the language server did not start: ${describe(tried[0].candidate)} failed: ${tried[0].error}. ` +
            "Fix the tether.serverCommand setting.";
    }
    const list = tried.map((t) => `${[t.candidate.command, ...t.candidate.args].join(" ")}: ${t.error}`).join("; ");
    return `tether: no language server found (tried ${list}). Install tether's Python package ` +
        "where one of these finds it, or set tether.serverCommand.";
}
