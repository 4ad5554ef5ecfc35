// The "tether" view in the explorer: the notes of the file in the editor grouped by kind, then
// the notes of the workspace whose code is lost (orphaned or ambiguous). Click reveals the
// anchored code; the context menu opens the note file, confirms an invariant or retires a note.
import { existsSync } from "node:fs";
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import {
    codePaths, describeAnchor, groupByKind, KIND_PLURAL, lostAnchors, noteMarkdown, placeIn, resolved,
    type Anchor, type Group, type Kind, type Lost, type Note,
} from "../pure/notes";
import { relativeTo, tetherRoot } from "../pure/paths";
import { errorText, logError } from "./log";
import type { Server } from "./server";

const ICON: Record<Kind, string> = {
    decision: "milestone", invariant: "shield", boundary: "circle-slash", intent: "target", workaround: "tools",
};
/** Files resolved one by one for the lost-notes section, at most (a very large workspace gets `tether doctor`). */
const MAX_FILES = 400;

interface FileNotes { uri: vscode.Uri; root: string; rel: string; notes: Note[] }
interface LostIn { root: string; lost: Lost }

type Item =
    | { type: "group"; group: Group; file: FileNotes }
    | { type: "note"; note: Note; root: string; anchor?: Anchor; uri?: vscode.Uri; lost: boolean }
    | { type: "lostGroup"; lost: LostIn[] }
    | { type: "message"; text: string };

export class NotesView implements vscode.TreeDataProvider<Item>, vscode.Disposable {
    private file: FileNotes | undefined;
    private lost: LostIn[] = [];
    private lostCut = false;
    private readonly changed = new vscode.EventEmitter<Item | undefined>();
    readonly onDidChangeTreeData = this.changed.event;
    private readonly fileChanged = new vscode.EventEmitter<void>();
    /** Fires when the current file's notes were fetched again (the status bar listens). */
    readonly onDidChangeFile = this.fileChanged.event;
    private timer: NodeJS.Timeout | undefined;
    private workspaceRun: Promise<void> | undefined;
    private workspaceAgain = false;
    readonly view: vscode.TreeView<Item>;

    constructor(private readonly server: Server) {
        this.view = vscode.window.createTreeView("tether.notes", { treeDataProvider: this, showCollapseAll: true });
    }

    /** Notes on the file in the editor now. */
    get current(): FileNotes | undefined {
        return this.file;
    }

    /** Fetch the current file's notes again, soon (editor switches and typing come in bursts). */
    refreshFileSoon(delay = 250): void {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.refreshFile(), delay);
    }

    async refreshFile(): Promise<void> {
        const editor = vscode.window.activeTextEditor;
        const client = this.server.running;
        const doc = editor?.document;
        let file: FileNotes | undefined;
        if (client && doc && doc.uri.scheme === "file") {
            const root = tetherRoot(doc.uri.fsPath);
            const rel = root && relativeTo(root, doc.uri.fsPath);
            if (root && rel && !rel.startsWith(".tether/")) {
                try {
                    file = { uri: doc.uri, root, rel, notes: await this.server.notes(client, doc.uri) };
                } catch (e) {
                    logError(`tether/notes for ${rel}`, e);
                }
            }
        } else if (!editor && this.file) {
            file = this.file; // the focus moved to a panel or the view itself: keep the last file
        }
        this.file = file;
        this.view.description = file ? file.rel : undefined;
        this.changed.fire(undefined);
        this.fileChanged.fire();
    }

    /** Resolve the workspace's notes again for the lost-notes section: one run at a time, and
     * one more after it when asked meanwhile. */
    refreshWorkspace(): Promise<void> {
        if (this.workspaceRun) {
            this.workspaceAgain = true;
            return this.workspaceRun;
        }
        this.workspaceRun = (async () => {
            do {
                this.workspaceAgain = false;
                await this.resolveWorkspace();
            } while (this.workspaceAgain);
        })().finally(() => { this.workspaceRun = undefined; });
        return this.workspaceRun;
    }

    private async resolveWorkspace(): Promise<void> {
        const client = this.server.running;
        if (!client) {
            this.lost = [];
            this.changed.fire(undefined);
            return;
        }
        try {
            const all = await this.server.notes(client);
            const roots = this.roots();
            const rootOf = (n: Note) => roots.find((r) => exists(vscode.Uri.joinPath(vscode.Uri.file(r), n.file)));
            const lost: LostIn[] = [];
            if (resolved(all)) {
                for (const l of lostAnchors(all)) {
                    const root = rootOf(l.note);
                    if (root) lost.push({ root, lost: l });
                }
            } else {
                // the server sends stored notes without states: resolve them file by file
                const byRoot = new Map<string, Note[]>();
                for (const n of all) {
                    const root = rootOf(n);
                    if (root) byRoot.set(root, [...(byRoot.get(root) ?? []), n]);
                }
                let budget = MAX_FILES;
                this.lostCut = false;
                for (const [root, notes] of byRoot) {
                    for (const path of codePaths(notes)) {
                        if (budget-- <= 0) {
                            this.lostCut = true;
                            break;
                        }
                        const fileNotes = await this.server.notes(client, vscode.Uri.joinPath(vscode.Uri.file(root), path));
                        for (const l of lostAnchors(fileNotes)) {
                            if (l.anchor.path === path) lost.push({ root, lost: l });
                        }
                    }
                }
            }
            this.lost = lost;
        } catch (e) {
            logError("tether/notes for the workspace", e);
        }
        this.changed.fire(undefined);
    }

    private roots(): string[] {
        const out = new Set<string>();
        for (const f of vscode.workspace.workspaceFolders ?? []) {
            const r = tetherRoot(f.uri.fsPath);
            if (r) out.add(r);
        }
        if (this.file) out.add(this.file.root);
        return [...out];
    }

    // -- the tree -----------------------------------------------------------------------------

    getChildren(item?: Item): Item[] {
        if (!item) {
            const top: Item[] = [];
            if (this.file) {
                const groups = groupByKind(this.file.notes);
                top.push(...groups.map((group) => ({ type: "group" as const, group, file: this.file! })));
                if (!groups.length) top.push({ type: "message", text: `No notes on ${this.file.rel}` });
            }
            if (this.lost.length) top.push({ type: "lostGroup", lost: this.lost });
            return top;
        }
        if (item.type === "group") {
            return item.group.notes.map((note) => ({ type: "note" as const, note, root: item.file.root,
                anchor: placeIn(note, item.file.rel), uri: item.file.uri, lost: false }));
        }
        if (item.type === "lostGroup") {
            const items: Item[] = item.lost.map(({ root, lost }) => ({ type: "note" as const, note: lost.note, root, anchor: lost.anchor,
                uri: lost.anchor.path ? vscode.Uri.joinPath(vscode.Uri.file(root), lost.anchor.path) : undefined, lost: true }));
            if (this.lostCut) items.push({ type: "message", text: `Only ${MAX_FILES} files were looked at: run tether doctor for all` });
            return items;
        }
        return [];
    }

    getTreeItem(item: Item): vscode.TreeItem {
        switch (item.type) {
            case "group": {
                const t = new vscode.TreeItem(`${KIND_PLURAL[item.group.kind]} (${item.group.notes.length})`, vscode.TreeItemCollapsibleState.Expanded);
                t.iconPath = new vscode.ThemeIcon(ICON[item.group.kind]);
                t.id = `group:${item.group.kind}`;
                return t;
            }
            case "lostGroup": {
                const t = new vscode.TreeItem(`Lost in the workspace (${item.lost.length})`, vscode.TreeItemCollapsibleState.Expanded);
                t.iconPath = new vscode.ThemeIcon("warning");
                t.tooltip = "Notes whose code is gone (orphaned) or matches several places (ambiguous): re-anchor or retire them.";
                t.id = "group:lost";
                return t;
            }
            case "message": {
                const t = new vscode.TreeItem(item.text, vscode.TreeItemCollapsibleState.None);
                t.iconPath = new vscode.ThemeIcon("info");
                return t;
            }
            case "note": {
                const t = new vscode.TreeItem(item.note.title, vscode.TreeItemCollapsibleState.None);
                t.id = `${item.lost ? "lost" : "file"}:${item.note.id}:${item.anchor?.path ?? ""}`;
                t.description = item.lost ? `${item.anchor?.path ?? ""} · ${describeAnchor(item.anchor)}` : describeAnchor(item.anchor);
                t.tooltip = new vscode.MarkdownString(noteMarkdown(item.note));
                t.iconPath = new vscode.ThemeIcon(item.lost ? "warning" : ICON[item.note.kind]);
                t.contextValue = `note.${item.note.kind}.${item.note.status}`;
                t.command = { title: "Reveal Anchored Code", command: "tether.notes.reveal", arguments: [item] };
                return t;
            }
        }
    }

    // -- the view's commands ------------------------------------------------------------------

    async reveal(item: Item): Promise<void> {
        if (item?.type !== "note") return;
        const range = item.anchor?.range;
        if (!item.uri || !range || !exists(item.uri)) {
            await this.openNoteFile(item);
            return;
        }
        const r = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
        const editor = await vscode.window.showTextDocument(item.uri, { selection: new vscode.Range(r.start, r.start), preview: true });
        editor.revealRange(r, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }

    async openNoteFile(item: Item): Promise<void> {
        if (item?.type !== "note") return;
        await vscode.window.showTextDocument(vscode.Uri.joinPath(vscode.Uri.file(item.root), item.note.file));
    }

    async confirm(item: Item): Promise<void> {
        if (item?.type !== "note") return;
        await this.run("tether.confirm", item.note, `tether: confirmed “${item.note.title}” still holds.`);
    }

    async retire(item: Item): Promise<void> {
        if (item?.type !== "note") return;
        const ok = await vscode.window.showWarningMessage(`Retire the ${item.note.kind} “${item.note.title}”?`,
            { modal: true, detail: "A retired note stays in its file (status = \"retired\") but is no longer shown or handed to agents." }, "Retire");
        if (ok === "Retire") {
            await this.run("tether.retire", item.note, `tether: retired “${item.note.title}”.`);
        }
    }

    private async run(command: string, note: Note, done: string): Promise<void> {
        const client: LanguageClient | undefined = await this.server.ready();
        if (!client) return;
        try {
            if (await this.server.execute<Note>(client, command, { id: note.id })) {
                void vscode.window.showInformationMessage(done);
            }
        } catch (e) {
            void vscode.window.showErrorMessage(`tether: ${command} failed: ${errorText(e)}`);
        }
        await Promise.all([this.refreshFile(), this.refreshWorkspace()]);
    }

    dispose(): void {
        clearTimeout(this.timer);
        this.view.dispose();
        this.changed.dispose();
        this.fileChanged.dispose();
    }
}

function exists(uri: vscode.Uri): boolean {
    return existsSync(uri.fsPath);
}
