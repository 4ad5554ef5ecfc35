import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { codePaths, describeAnchor, groupByKind, lostAnchors, noteMarkdown, placeIn, resolved, statusText, type Note } from "../../src/pure/notes";

const range = (line: number) => ({ start: { line, character: 0 }, end: { line: line + 2, character: 1 } });

function note(id: string, kind: Note["kind"], extra: Partial<Note> = {}): Note {
    return { id, kind, title: `${kind} ${id}`, status: "active", file: `.tether/notes/${id}.md`,
        anchors: [{ type: "symbol", path: "a.py", name: `f${id}`, state: "ok", range: range(Number(id) * 10) }], ...extra };
}

describe("grouping a file's notes", () => {
    it("orders kinds decision → workaround, notes by line, and leaves retired notes out", () => {
        const notes = [note("3", "workaround"), note("2", "decision"), note("1", "decision"), note("4", "invariant"),
            note("5", "boundary", { status: "retired" })];
        const groups = groupByKind(notes);
        assert.deepEqual(groups.map((g) => [g.kind, g.notes.map((n) => n.id)]), [
            ["decision", ["1", "2"]], ["invariant", ["4"]], ["workaround", ["3"]]]);
    });
});

describe("lost anchors", () => {
    it("lists orphaned and ambiguous anchors of active notes, by path", () => {
        const notes = [
            note("1", "decision", { anchors: [{ type: "symbol", path: "b.py", name: "gone", state: "orphaned", range: null }] }),
            note("2", "intent", { anchors: [{ type: "symbol", path: "a.py", name: "twice", state: "ambiguous", range: range(1) },
                { type: "file", path: "a.py", state: "ok" }] }),
            note("3", "decision", { status: "retired", anchors: [{ type: "symbol", path: "c.py", state: "orphaned" }] }),
            note("4", "decision"),
        ];
        assert.deepEqual(lostAnchors(notes).map((l) => [l.note.id, l.anchor.path, l.anchor.state, l.index]),
            [["2", "a.py", "ambiguous", 0], ["1", "b.py", "orphaned", 0]]);
    });

    it("knows whether the server resolved the anchors, and which files to ask about", () => {
        const stored = [note("1", "decision", { anchors: [{ type: "symbol", path: "b.py" }, { type: "glob", pattern: "src/**" }] }),
            note("2", "intent", { anchors: [{ type: "span", path: "a.py" }, { type: "file", path: "z.py" }] }),
            note("3", "intent", { status: "retired", anchors: [{ type: "span", path: "old.py" }] })];
        assert.equal(resolved(stored), false);
        assert.equal(resolved([note("1", "decision")]), true);
        assert.deepEqual(codePaths(stored), ["a.py", "b.py"]);
    });
});

describe("what the view and the status bar show", () => {
    it("describes an anchor: its name, its state when not ok, a rename, a pattern", () => {
        assert.equal(describeAnchor({ type: "symbol", name: "charge", state: "ok" }), "charge");
        assert.equal(describeAnchor({ type: "symbol", name: "charge", state: "changed" }), "charge · changed");
        assert.equal(describeAnchor({ type: "symbol", name: "add", now_named: "append", state: "renamed" }), "add → append · renamed");
        assert.equal(describeAnchor({ type: "span", state: "ok", range: range(4) }), "line 5");
        assert.equal(describeAnchor({ type: "glob", pattern: "billing/**" }), "billing/**");
        assert.equal(describeAnchor({ type: "file", path: "a.py", state: "ok" }), "the file");
        assert.equal(describeAnchor(undefined), "");
    });

    it("places a note in a file by its anchor there, else by its first anchor", () => {
        const n = note("1", "decision", { anchors: [{ type: "glob", pattern: "**" }, { type: "symbol", path: "a.py", name: "f", range: range(3) }] });
        assert.equal(placeIn(n, "a.py")?.name, "f");
        assert.equal(placeIn(n, "b.py")?.pattern, "**");
    });

    it("counts notes and violations for the status bar", () => {
        assert.equal(statusText(1, 0), "$(note) 1 note · 0 violations");
        assert.equal(statusText(5, 2), "$(note) 5 notes · $(error) 2 violations");
    });

    it("shows a note's rationale and rejected options in its tooltip", () => {
        const md = noteMarkdown(note("1", "decision", { rationale: "exact sums", alternatives: [{ option: "float", rejected_because: "0.1 + 0.2" }] }));
        assert.match(md, /\*\*decision\*\* — decision 1/);
        assert.match(md, /Rationale: exact sums/);
        assert.match(md, /- float: 0\.1 \+ 0\.2/);
    });
});
