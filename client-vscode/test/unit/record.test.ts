import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import {
    draftSummary, emptyDraft, hasInput, makeCheck, parseAlternative, recordArguments, rewriteRecordCommand,
    stepsFor, type Check, type Place,
} from "../../src/pure/record";

const place: Place = { uri: "file:///w/a.py", range: { start: { line: 4, character: 2 }, end: { line: 4, character: 2 } }, how: "symbol", label: "a.py:5" };

describe("the record flow's steps", () => {
    it("asks each kind for what its notes hold", () => {
        assert.deepEqual(stepsFor("decision"), ["title", "rationale", "alternatives"]);
        assert.deepEqual(stepsFor("invariant"), ["title", "rationale", "checks"]);
        assert.deepEqual(stepsFor("workaround"), ["title", "worksAround", "removeWhen", "rationale"]);
        assert.deepEqual(stepsFor("boundary"), ["title", "rationale"]);
        assert.deepEqual(stepsFor("intent"), ["title", "rationale"]);
    });

    it("reads a rejected option as 'option: why', refusing anything else with the reason", () => {
        assert.deepEqual(parseAlternative("float dollars: 0.1 + 0.2 != 0.3"), { option: "float dollars", rejected_because: "0.1 + 0.2 != 0.3" });
        assert.deepEqual(parseAlternative("a: b: c"), { option: "a", rejected_because: "b: c" });
        assert.match(parseAlternative("no colon") as string, /option: why/);
        assert.match(parseAlternative(": why") as string, /Name the option/);
        assert.match(parseAlternative("option:  ") as string, /why it was rejected/);
    });

    it("makes checks with the CLI's ids, refusing blanks and spaces", () => {
        assert.deepEqual(makeCheck("forbid-call", " time.sleep "), { id: "forbid-call:time.sleep", kind: "forbid-call", pattern: "time.sleep" });
        assert.match(makeCheck("forbid-import", "") as string, /Give a name/);
        assert.match(makeCheck("forbid-call", "time sleep") as string, /no spaces/);
    });
});

describe("tether.record's argument", () => {
    it("carries what the kind holds, trimmed, and nothing empty", () => {
        const d = emptyDraft("decision", place);
        d.title = "  Integer cents ";
        d.alternatives = [{ option: "float", rejected_because: "inexact" }];
        d.checks = [makeCheck("forbid-call", "x") as Check]; // not a decision's
        assert.deepEqual(recordArguments(d), { uri: "file:///w/a.py", range: place.range, kind: "decision", how: "symbol",
            title: "Integer cents", alternatives: [{ option: "float", rejected_because: "inexact" }] });
    });

    it("sends an invariant's checks and a workaround's problem and end", () => {
        const inv = emptyDraft("invariant", place);
        inv.title = "t";
        inv.rationale = "r";
        inv.checks = [makeCheck("forbid-call", "time.sleep") as Check];
        assert.deepEqual(recordArguments(inv).checks, [{ id: "forbid-call:time.sleep", kind: "forbid-call", pattern: "time.sleep" }]);
        assert.equal(recordArguments(inv).rationale, "r");
        const w = emptyDraft("workaround", { ...place, how: "span" });
        w.title = "t";
        w.worksAround = "the gateway drops idle connections";
        w.removeWhen = "keep-alive ships";
        const arg = recordArguments(w);
        assert.equal(arg.works_around, "the gateway drops idle connections");
        assert.equal(arg.remove_when, "keep-alive ships");
        assert.equal(arg.how, "span");
    });
});

describe("drafts", () => {
    it("keeps a draft only when something was typed, including the open box's text", () => {
        const d = emptyDraft("intent", place);
        assert.equal(hasInput(d), false);
        d.pending = "half a ti";
        d.step = "title";
        assert.equal(hasInput(d), true);
        assert.equal(draftSummary(d), "intent “half a ti” at a.py:5");
        d.title = "Whole title";
        assert.equal(draftSummary(d), "intent “Whole title” at a.py:5");
    });
});

describe("the server's code actions", () => {
    it("turn a template 'Record … here' into the record flow, leaving other commands alone", () => {
        const arg = { uri: "file:///w/a.py", range: place.range, kind: "boundary" };
        assert.deepEqual(rewriteRecordCommand({ title: "Record boundary here", command: "tether.record", arguments: [arg] }, "tether.recordAt"),
            { title: "Record boundary here", command: "tether.recordAt", arguments: [arg] });
        const titled = { title: "x", command: "tether.record", arguments: [{ ...arg, title: "given" }] };
        assert.equal(rewriteRecordCommand(titled, "tether.recordAt"), titled);
        const confirm = { title: "Still holds", command: "tether.confirm", arguments: [{ id: "1" }] };
        assert.equal(rewriteRecordCommand(confirm, "tether.recordAt"), confirm);
    });
});
