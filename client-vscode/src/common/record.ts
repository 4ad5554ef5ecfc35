// "tether: Record Decision Here" and the other kinds: a multi-step quick input (title, rationale,
// rejected options one at a time, checks for invariants), sent as `tether.record`. Escape at
// any step keeps what was typed as a draft, offered back the next time.
import * as vscode from "vscode";
import type { Kind, Note, Range } from "../pure/notes";
import { tetherRoot, relativeTo } from "../pure/paths";
import {
    CHECK_KINDS, draftSummary, emptyDraft, hasInput, makeCheck, parseAlternative, recordArguments,
    STEP_PROMPT, stepsFor, TITLE_PROMPT, type CheckKind, type Draft, type Place, type Step,
} from "../pure/record";
import { errorText, log, logError } from "./log";
import type { Server } from "./server";

const DRAFT_KEY = "tether.draft";
const KIND_TITLE: Record<Kind, string> = {
    decision: "Decision", invariant: "Invariant", boundary: "Boundary", intent: "Intent", workaround: "Workaround",
};

type Answer = { is: "value"; value: string } | { is: "back" } | { is: "cancel"; value: string };

/** The first answer of an input widget resolves its promise and disposes of it; later ones
 *  (a hide after an accept) are ignored. */
function settleOnce<A>(resolve: (a: A) => void, widget: vscode.Disposable): (a: A) => void {
    let done = false;
    return (a: A) => {
        if (!done) {
            done = true;
            resolve(a);
            widget.dispose();
        }
    };
}

/** One input box; resolves on Enter (after `validate` passes), Back, or Escape (with the text typed). */
function ask(opts: { title: string; prompt: string; value: string; placeholder?: string; back: boolean;
                     validate?: (v: string) => string | undefined }): Promise<Answer> {
    return new Promise((resolve) => {
        const box = vscode.window.createInputBox();
        const finish = settleOnce(resolve, box);
        box.title = opts.title;
        box.prompt = opts.prompt;
        box.value = opts.value;
        box.placeholder = opts.placeholder;
        box.ignoreFocusOut = true;
        box.buttons = opts.back ? [vscode.QuickInputButtons.Back] : [];
        box.onDidChangeValue(() => { box.validationMessage = undefined; });
        box.onDidAccept(() => {
            const error = opts.validate?.(box.value);
            if (error) {
                box.validationMessage = error;
            } else {
                finish({ is: "value", value: box.value });
            }
        });
        box.onDidTriggerButton((b) => { if (b === vscode.QuickInputButtons.Back) finish({ is: "back" }); });
        box.onDidHide(() => finish({ is: "cancel", value: box.value }));
        box.show();
    });
}

interface PickItem<T> extends vscode.QuickPickItem { value: T }

/** One quick pick; resolves to the picked value, "back" or "cancel". */
function pick<T>(opts: { title: string; placeholder: string; items: PickItem<T>[]; back: boolean }):
    Promise<{ is: "value"; value: T } | { is: "back" } | { is: "cancel" }> {
    return new Promise((resolve) => {
        const qp = vscode.window.createQuickPick<PickItem<T>>();
        const finish = settleOnce(resolve, qp);
        qp.title = opts.title;
        qp.placeholder = opts.placeholder;
        qp.items = opts.items;
        qp.ignoreFocusOut = true;
        qp.buttons = opts.back ? [vscode.QuickInputButtons.Back] : [];
        qp.onDidAccept(() => { const s = qp.selectedItems[0]; if (s) finish({ is: "value", value: s.value }); });
        qp.onDidTriggerButton((b) => { if (b === vscode.QuickInputButtons.Back) finish({ is: "back" }); });
        qp.onDidHide(() => finish({ is: "cancel" }));
        qp.show();
    });
}

export class Recorder {
    constructor(private readonly server: Server, private readonly state: vscode.Memento,
                private readonly recorded: (note: Note) => void) {}

    /** The command palette and the editor's context menu: the cursor or selection of the active editor. */
    async recordHere(kind: Kind): Promise<void> {
        const editor = vscode.window.activeTextEditor;
        if (!editor || editor.document.uri.scheme !== "file") {
            void vscode.window.showErrorMessage("tether: open a file and put the cursor on the code the note is about.");
            return;
        }
        const client = await this.server.ready();
        if (!client) {
            return;
        }
        const sel = editor.selection;
        const range = client.code2ProtocolConverter.asRange(sel);
        await this.begin(kind, this.place(editor.document.uri, range, sel.isEmpty ? "symbol" : "span"));
    }

    /** The server's code actions ("Record decision here"): `{uri, range, kind}` in protocol form. */
    async recordAt(arg: { uri: string; range: Range; kind?: Kind }): Promise<void> {
        const client = await this.server.ready();
        if (!client || !arg?.uri) {
            return;
        }
        const uri = client.protocol2CodeConverter.asUri(arg.uri);
        const r = arg.range;
        const empty = r.start.line === r.end.line && r.start.character === r.end.character;
        await this.begin(arg.kind ?? "decision", this.place(uri, r, empty ? "symbol" : "span"));
    }

    private place(uri: vscode.Uri, range: Range, how: "symbol" | "span"): Place {
        const root = tetherRoot(uri.fsPath) ?? vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath;
        const rel = (root && relativeTo(root, uri.fsPath)) ?? vscode.workspace.asRelativePath(uri);
        const client = this.server.running!;
        return { uri: client.code2ProtocolConverter.asUri(uri), range, how, label: `${rel}:${range.start.line + 1}` };
    }

    private async begin(kind: Kind, place: Place): Promise<void> {
        const saved = this.state.get<Draft>(DRAFT_KEY);
        let draft = emptyDraft(kind, place);
        if (saved) {
            const choice = await pick({
                title: "tether: a draft is waiting", placeholder: "Continue the draft or start a new note?", back: false,
                items: [
                    { label: "$(edit) Continue the draft", description: draftSummary(saved), value: "continue" },
                    { label: `$(add) Record a new ${kind} here`, description: "the draft is kept", value: "new" },
                    { label: `$(trash) Discard the draft and record a new ${kind} here`, value: "discard" },
                ],
            });
            if (choice.is !== "value") {
                return;
            }
            if (choice.value === "continue") {
                draft = saved;
            } else if (choice.value === "discard") {
                await this.state.update(DRAFT_KEY, undefined);
            }
        }
        await this.flow(draft);
    }

    /** Runs the steps from the draft's current step; records, or keeps a draft when cancelled. */
    private async flow(d: Draft): Promise<void> {
        const steps = stepsFor(d.kind);
        let i = d.step ? Math.max(0, steps.indexOf(d.step)) : 0;
        // text left in the box that was open when the draft was saved goes back into it
        let carried = d.pending;
        d.pending = "";
        while (i < steps.length) {
            const step = steps[i];
            const title = `tether: Record ${KIND_TITLE[d.kind]} at ${d.place.label} (${i + 1}/${steps.length})`;
            const r = await this.step(d, step, title, i > 0, carried);
            carried = "";
            if (r.is === "back") {
                i -= 1;
            } else if (r.is === "cancel") {
                d.step = step;
                d.pending = r.value;
                await this.cancelled(d);
                return;
            } else {
                i += 1;
            }
        }
        d.step = undefined;
        await this.send(d);
    }

    private async step(d: Draft, step: Step, title: string, back: boolean, carried: string): Promise<Answer> {
        switch (step) {
            case "title": {
                const r = await ask({ title, prompt: TITLE_PROMPT[d.kind], value: carried || d.title, back,
                    validate: (v) => (v.trim() ? undefined : "A note needs a title") });
                if (r.is === "value") d.title = r.value.trim();
                return r;
            }
            case "rationale":
            case "worksAround":
            case "removeWhen": {
                const key = step === "rationale" ? "rationale" : step === "worksAround" ? "worksAround" : "removeWhen";
                const r = await ask({ title, prompt: STEP_PROMPT[step], value: carried || d[key], back });
                if (r.is === "value") d[key] = r.value.trim();
                return r;
            }
            case "alternatives":
                return this.alternatives(d, title, back, carried);
            case "checks":
                return this.checks(d, title, back);
        }
    }

    /** Rejected options one at a time, in one input box (nothing typed between two options is
     * lost); an empty line finishes. */
    private alternatives(d: Draft, title: string, back: boolean, carried: string): Promise<Answer> {
        return new Promise((resolve) => {
            const box = vscode.window.createInputBox();
            let done = false;
            const finish = (a: Answer) => {
                if (!done) {
                    done = true;
                    resolve(a);
                    box.dispose();
                }
            };
            const describe = () => {
                const so_far = d.alternatives.length ? ` — rejected so far: ${d.alternatives.map((a) => a.option).join(", ")}` : "";
                box.prompt = `${STEP_PROMPT.alternatives}${so_far}`;
                box.placeholder = `rejected option ${d.alternatives.length + 1}, e.g. "float dollars: 0.1 + 0.2 != 0.3"`;
            };
            box.title = title;
            box.value = carried;
            box.ignoreFocusOut = true;
            box.buttons = back ? [vscode.QuickInputButtons.Back] : [];
            describe();
            box.onDidChangeValue(() => { box.validationMessage = undefined; });
            box.onDidAccept(() => {
                if (!box.value.trim()) {
                    finish({ is: "value", value: "" });
                    return;
                }
                const a = parseAlternative(box.value);
                if (typeof a === "string") {
                    box.validationMessage = a;
                    return;
                }
                d.alternatives.push(a);
                box.value = "";
                describe();
            });
            box.onDidTriggerButton((b) => { if (b === vscode.QuickInputButtons.Back) finish({ is: "back" }); });
            box.onDidHide(() => finish({ is: "cancel", value: box.value }));
            box.show();
        });
    }

    /** Invariant checks: pick a kind, give its name; "no (more) checks" finishes. */
    private async checks(d: Draft, title: string, back: boolean): Promise<Answer> {
        for (;;) {
            const have = d.checks.map((c) => `${c.kind} ${c.pattern}`).join(", ");
            const items: PickItem<CheckKind | "done">[] = [
                { label: d.checks.length ? "$(check) Done: record the invariant" : "$(check) No checks: record the invariant", description: have, value: "done" },
                ...Object.entries(CHECK_KINDS).map(([k, what]) => ({ label: k, description: what, value: k as CheckKind })),
            ];
            const r = await pick({ title, placeholder: STEP_PROMPT.checks, items, back });
            if (r.is === "back") return r;
            if (r.is === "cancel") return { is: "cancel", value: "" };
            if (r.value === "done") return { is: "value", value: "" };
            const kind = r.value;
            const p = await ask({ title, prompt: `${kind}: ${CHECK_KINDS[kind]}`, value: "", back: true,
                placeholder: kind === "forbid-import" ? "a module, e.g. requests" : "a name, e.g. time.sleep",
                validate: (v) => { const c = makeCheck(kind, v); return typeof c === "string" ? c : undefined; } });
            if (p.is === "cancel") return { is: "cancel", value: "" };
            if (p.is === "value") {
                const c = makeCheck(kind, p.value);
                if (typeof c !== "string" && !d.checks.some((x) => x.id === c.id)) d.checks.push(c);
            }
        }
    }

    private async cancelled(d: Draft): Promise<void> {
        if (!hasInput(d)) {
            return;
        }
        // kept unless the user says to discard it: a dismissed notification loses nothing
        await this.state.update(DRAFT_KEY, d);
        const choice = await vscode.window.showInformationMessage(
            `tether: recording cancelled. Keep what you typed (${draftSummary(d)}) as a draft?`, "Save Draft", "Discard");
        if (choice === "Discard") {
            await this.state.update(DRAFT_KEY, undefined);
        } else {
            log(`kept a draft: ${draftSummary(d)}`);
        }
    }

    private async send(d: Draft): Promise<void> {
        const client = await this.server.ready();
        let note: Note | null = null;
        if (client) {
            try {
                note = await this.server.execute<Note>(client, "tether.record", recordArguments(d));
            } catch (e) {
                logError("tether.record", e);
                void vscode.window.showErrorMessage(`tether: the note was not recorded: ${errorText(e)}`);
            }
        }
        if (!note) {
            // the server said why (window/showMessage); nothing typed is lost
            await this.state.update(DRAFT_KEY, d);
            log(`not recorded; kept as a draft: ${draftSummary(d)}`);
            return;
        }
        await this.state.update(DRAFT_KEY, undefined);
        log(`recorded ${note.kind} ${note.id} in ${note.file}`);
        const noteFile = this.noteFile(d, note);
        this.recorded(note);
        void vscode.window.showInformationMessage(`tether: recorded ${note.kind} “${note.title}”.`, "Open Note").then((c) => {
            if (c === "Open Note" && noteFile) {
                void vscode.window.showTextDocument(noteFile);
            }
        });
    }

    private noteFile(d: Draft, note: Note): vscode.Uri | undefined {
        const client = this.server.running;
        const source = client ? client.protocol2CodeConverter.asUri(d.place.uri) : undefined;
        const root = source && tetherRoot(source.fsPath);
        return root ? vscode.Uri.joinPath(vscode.Uri.file(root), note.file) : undefined;
    }
}
