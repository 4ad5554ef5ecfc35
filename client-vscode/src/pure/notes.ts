// The notes the server sends (`tether/notes`, the JSON of `tether list --json`), grouped for
// the tether view and counted for the status bar. No vscode import.

export interface Position { line: number; character: number }
export interface Range { start: Position; end: Position }

export interface Anchor {
    type: "symbol" | "span" | "lines" | "file" | "glob";
    path?: string;
    pattern?: string;
    name?: string;
    state?: "ok" | "moved" | "changed" | "renamed" | "orphaned" | "ambiguous";
    range?: Range | null;
    now_named?: string;
    candidates?: Range[];
}

export interface Note {
    id: string;
    kind: Kind;
    title: string;
    status: "active" | "superseded" | "retired";
    superseded_by?: string | null;
    author?: string;
    created?: string;
    updated?: string;
    tags?: string[];
    rationale?: string | null;
    alternatives?: { option: string; rejected_because: string }[];
    works_around?: string | null;
    remove_when?: string | null;
    body?: string;
    /** the note file, relative to the root of its workspace (the folder holding .tether/) */
    file: string;
    anchors: Anchor[];
}

export const KINDS = ["decision", "invariant", "boundary", "intent", "workaround"] as const;
export type Kind = typeof KINDS[number];

export const KIND_PLURAL: Record<Kind, string> = {
    decision: "Decisions", invariant: "Invariants", boundary: "Boundaries", intent: "Intents",
    workaround: "Workarounds",
};

export const LOST_STATES = new Set(["orphaned", "ambiguous"]);
const CODE_ANCHORS = new Set(["symbol", "span", "lines"]);

export interface Group { kind: Kind; notes: Note[] }

/** The file's notes by kind, in the fixed kind order; retired notes are left out, empty kinds too. */
export function groupByKind(notes: Note[]): Group[] {
    return KINDS.map((kind) => ({
        kind,
        notes: notes.filter((n) => n.kind === kind && n.status !== "retired")
            .sort((a, b) => firstLine(a) - firstLine(b) || a.title.localeCompare(b.title)),
    })).filter((g) => g.notes.length > 0);
}

function firstLine(n: Note): number {
    const lines = n.anchors.map((a) => a.range?.start.line).filter((l): l is number => typeof l === "number");
    return lines.length ? Math.min(...lines) : Number.MAX_SAFE_INTEGER;
}

export interface Lost { note: Note; anchor: Anchor; index: number }

/** Anchors of active notes whose code is lost (orphaned or ambiguous), one entry per anchor. */
export function lostAnchors(notes: Note[]): Lost[] {
    const out: Lost[] = [];
    const seen = new Set<string>();
    for (const note of notes) {
        if (note.status === "retired") {
            continue;
        }
        note.anchors.forEach((anchor, index) => {
            const key = `${note.id}#${index}`;
            if (anchor.state && LOST_STATES.has(anchor.state) && !seen.has(key)) {
                seen.add(key);
                out.push({ note, anchor, index });
            }
        });
    }
    return out.sort((a, b) => (a.anchor.path ?? "").localeCompare(b.anchor.path ?? "") || a.note.title.localeCompare(b.note.title));
}

/** Whether the server already resolved these notes' anchors (`tether/notes` with a uri does;
 * without one it sends the notes as stored). */
export function resolved(notes: Note[]): boolean {
    return notes.every((n) => n.anchors.every((a) => !CODE_ANCHORS.has(a.type) || a.state !== undefined));
}

/** Workspace-relative paths of the files the notes' code anchors are in (to resolve them file by file). */
export function codePaths(notes: Note[]): string[] {
    const paths = new Set<string>();
    for (const n of notes) {
        if (n.status === "retired") {
            continue;
        }
        for (const a of n.anchors) {
            if (CODE_ANCHORS.has(a.type) && a.path) {
                paths.add(a.path);
            }
        }
    }
    return [...paths].sort();
}

/** Where a note is anchored in the file `rel`: the first located anchor there, else its first
 * anchor (a path pattern covering the file). */
export function placeIn(note: Note, rel: string): Anchor | undefined {
    return note.anchors.find((a) => a.path === rel && a.range) ?? note.anchors.find((a) => a.path === rel) ?? note.anchors[0];
}

/** The line shown beside a note in the view: what it is anchored on and its state when not ok. */
export function describeAnchor(a: Anchor | undefined): string {
    if (!a) {
        return "";
    }
    const what = a.type === "glob" ? a.pattern ?? "" : a.type === "file" ? "the file" : a.name ?? `line ${(a.range?.start.line ?? 0) + 1}`;
    const name = a.now_named && a.now_named !== a.name ? `${what} → ${a.now_named}` : what;
    return a.state && a.state !== "ok" ? `${name} · ${a.state}` : name;
}

export function plural(n: number, word: string): string {
    return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The status bar's text: notes in this file · violations. */
export function statusText(notes: number, violations: number): string {
    return `$(note) ${plural(notes, "note")} · ${violations ? "$(error) " : ""}${plural(violations, "violation")}`;
}

/** A note's details as Markdown (the view's tooltip). */
export function noteMarkdown(n: Note): string {
    const out = [`**${n.kind}** — ${n.title}`];
    if (n.status !== "active") {
        out.push(`_${n.status}${n.superseded_by ? ` by ${n.superseded_by}` : ""}_`);
    }
    if (n.rationale) {
        out.push(`Rationale: ${n.rationale}`);
    }
    if (n.alternatives?.length) {
        out.push("Rejected:\n" + n.alternatives.map((a) => `- ${a.option}${a.rejected_because ? `: ${a.rejected_because}` : ""}`).join("\n"));
    }
    if (n.works_around) {
        out.push(`Works around: ${n.works_around}`);
    }
    if (n.remove_when) {
        out.push(`Can go when: ${n.remove_when}`);
    }
    if (n.body?.trim()) {
        out.push(n.body.trim());
    }
    out.push(`\`${n.file}\``);
    return out.join("\n\n");
}
