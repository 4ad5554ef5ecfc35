// The status bar item: notes in this file · invariant violations; click opens the tether view.
import * as vscode from "vscode";
import { statusText } from "../pure/notes";
import type { NotesView } from "./notesView";

export class StatusBar implements vscode.Disposable {
    private readonly item = vscode.window.createStatusBarItem("tether.status", vscode.StatusBarAlignment.Left, 50);

    constructor(private readonly view: NotesView) {
        this.item.name = "tether";
        this.item.command = "tether.notes.focus";
    }

    update(): void {
        const file = this.view.current;
        if (!file) {
            this.item.hide();
            return;
        }
        const notes = file.notes.filter((n) => n.status !== "retired").length;
        const violations = vscode.languages.getDiagnostics(file.uri)
            .filter((d) => d.source === "tether" && d.code === "invariant-violation").length;
        this.item.text = statusText(notes, violations);
        this.item.tooltip = `tether: ${file.rel} — click to open the tether view`;
        this.item.show();
    }

    dispose(): void {
        this.item.dispose();
    }
}
