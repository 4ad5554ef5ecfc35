// The record flow's data: which steps a kind asks for, how typed text becomes the arguments of
// the server's `tether.record` command, and the draft kept when the user presses Escape.
// No vscode import: the input boxes live in src/common/record.ts.
import type { Kind, Range } from "./notes";

export interface Alternative { option: string; rejected_because: string }

export const CHECK_KINDS = {
    "forbid-call": "no call to NAME in scope (time.sleep, requests.*, *.delete)",
    "require-call": "at least one call to NAME in scope (audit.log)",
    "forbid-import": "no import of MODULE (sqlalchemy.*, flask.session)",
    "forbid-identifier": "the name NAME is not used",
} as const;
export type CheckKind = keyof typeof CHECK_KINDS;

export interface Check { id: string; kind: CheckKind; pattern: string }

/** Where the note goes: a document (its uri as the server knows it) and the selection. */
export interface Place {
    uri: string;
    range: Range;
    /** "symbol": the innermost definition at the start; "span": the selected statements/lines */
    how: "symbol" | "span";
    /** for people: `billing/charge.py:12` */
    label: string;
}

export interface Draft {
    kind: Kind;
    place: Place;
    title: string;
    rationale: string;
    alternatives: Alternative[];
    checks: Check[];
    worksAround: string;
    removeWhen: string;
    /** text typed into the step that was open when the flow was cancelled */
    pending: string;
    /** that step */
    step?: Step;
}

export type Step = "title" | "rationale" | "alternatives" | "checks" | "worksAround" | "removeWhen";

export function emptyDraft(kind: Kind, place: Place): Draft {
    return { kind, place, title: "", rationale: "", alternatives: [], checks: [], worksAround: "", removeWhen: "", pending: "" };
}

export function stepsFor(kind: Kind): Step[] {
    switch (kind) {
        case "decision": return ["title", "rationale", "alternatives"];
        case "invariant": return ["title", "rationale", "checks"];
        case "workaround": return ["title", "worksAround", "removeWhen", "rationale"];
        default: return ["title", "rationale"];
    }
}

export const TITLE_PROMPT: Record<Kind, string> = {
    decision: "What was decided? (the note's title)",
    invariant: "What must stay true here? (the note's title)",
    boundary: "What is deliberately left out or handled here? (the note's title)",
    intent: "What is this code for? (the note's title)",
    workaround: "What looks wrong here but is on purpose? (the note's title)",
};

export const STEP_PROMPT: Record<Exclude<Step, "title">, string> = {
    rationale: "Why? (the rationale; optional, Enter to go on)",
    alternatives: "A rejected option, as 'option: why it was rejected' (empty to finish)",
    checks: "Add a check that tether runs on this code (or finish)",
    worksAround: "What problem does it work around? (optional)",
    removeWhen: "When can it go? (optional)",
};

/** `option: why` → an alternative; an error message when it is not written that way. */
export function parseAlternative(text: string): Alternative | string {
    const i = text.indexOf(":");
    if (i < 0) {
        return "Write it as 'option: why it was rejected'";
    }
    const option = text.slice(0, i).trim();
    const why = text.slice(i + 1).trim();
    if (!option) {
        return "Name the option before the colon";
    }
    if (!why) {
        return "Say why it was rejected after the colon";
    }
    return { option, rejected_because: why };
}

export function makeCheck(kind: CheckKind, pattern: string): Check | string {
    const p = pattern.trim();
    if (!p) {
        return "Give a name or pattern";
    }
    if (/\s/.test(p)) {
        return "A name or pattern has no spaces (dotted, * as a wildcard)";
    }
    return { id: `${kind}:${p}`, kind, pattern: p };
}

/** Whether the user typed anything worth keeping. */
export function hasInput(d: Draft): boolean {
    return Boolean(d.title.trim() || d.rationale.trim() || d.alternatives.length || d.checks.length ||
        d.worksAround.trim() || d.removeWhen.trim() || d.pending.trim());
}

/** The argument of `workspace/executeCommand` `tether.record`. */
export function recordArguments(d: Draft): Record<string, unknown> {
    const arg: Record<string, unknown> = {
        uri: d.place.uri, range: d.place.range, kind: d.kind, how: d.place.how, title: d.title.trim(),
    };
    if (d.rationale.trim()) {
        arg.rationale = d.rationale.trim();
    }
    if (d.kind === "decision" && d.alternatives.length) {
        arg.alternatives = d.alternatives;
    }
    if (d.kind === "invariant" && d.checks.length) {
        arg.checks = d.checks;
    }
    if (d.kind === "workaround") {
        if (d.worksAround.trim()) {
            arg.works_around = d.worksAround.trim();
        }
        if (d.removeWhen.trim()) {
            arg.remove_when = d.removeWhen.trim();
        }
    }
    return arg;
}

/** One line about a draft, to offer it back. */
export function draftSummary(d: Draft): string {
    const title = d.title.trim() || (d.step === "title" ? d.pending.trim() : "") || "(no title yet)";
    return `${d.kind} “${title}” at ${d.place.label}`;
}

// -- the server's code actions ----------------------------------------------------------------

export interface CommandLike { title: string; command: string; arguments?: unknown[] }

/** The server's "Record decision here" code actions run `tether.record` without a title (a
 * template note, for clients with no input UI); in VS Code they open the record flow instead.
 * Other commands pass unchanged. */
export function rewriteRecordCommand(cmd: CommandLike, ownCommand: string): CommandLike {
    if (cmd.command !== "tether.record" || !Array.isArray(cmd.arguments) || cmd.arguments.length !== 1) {
        return cmd;
    }
    const arg = cmd.arguments[0] as Record<string, unknown> | null;
    if (!arg || typeof arg !== "object" || arg.title) {
        return cmd;
    }
    return { title: cmd.title, command: ownCommand, arguments: [{ uri: arg.uri, range: arg.range, kind: arg.kind ?? "decision" }] };
}
