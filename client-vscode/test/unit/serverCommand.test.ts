import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { candidates, cliOf, findServer, notFoundMessage, probe, type Candidate } from "../../src/pure/serverCommand";

const PYTHON = process.env.TETHER_PYTHON || "python3";

describe("the server command's search order", () => {
    it("takes a set command alone, never replacing it", () => {
        assert.deepEqual(candidates(["/venv/bin/tether", "lsp"], "/usr/bin/python3"),
            [{ source: "setting", command: "/venv/bin/tether", args: ["lsp"] }]);
    });

    it("tries the Python extension's interpreter, then tether on PATH, then python3", () => {
        assert.deepEqual(candidates([], "/env/bin/python").map((c) => [c.source, c.command, ...c.args]), [
            ["python", "/env/bin/python", "-m", "tether", "lsp"],
            ["path", "tether", "lsp"],
            ["python3", "python3", "-m", "tether", "lsp"],
        ]);
        assert.deepEqual(candidates(undefined, undefined).map((c) => c.source), ["path", "python3"]);
    });

    it("ignores blank entries of the setting", () => {
        assert.deepEqual(candidates(["", "  "], undefined).map((c) => c.source), ["path", "python3"]);
    });

    it("derives the command line from the server command", () => {
        assert.deepEqual(cliOf({ source: "python", command: "/p", args: ["-m", "tether", "lsp"] }), { command: "/p", args: ["-m", "tether"] });
        assert.equal(cliOf({ source: "setting", command: "my-wrapper", args: [] }), undefined);
    });
});

describe("probing a candidate (real processes)", () => {
    it("accepts an interpreter with tether installed", async () => {
        assert.equal(await probe({ source: "python", command: PYTHON, args: ["-m", "tether", "lsp"] }), undefined);
    });

    it("says when the command does not exist", async () => {
        assert.match((await probe({ source: "path", command: "tether-no-such-command", args: ["lsp"] }))!, /not found/);
    });

    it("says when the module is missing", async () => {
        assert.match((await probe({ source: "python", command: PYTHON, args: ["-m", "tether_no_such_module", "lsp"] }))!, /No module named/);
    });

    it("refuses a command that is not tether", async () => {
        assert.match((await probe({ source: "path", command: "echo", args: ["lsp"] }))!, /not tether's version/);
    });

    it("finds the first that works and reports what it tried", async () => {
        const lines: string[] = [];
        const cands: Candidate[] = [
            { source: "path", command: "tether-no-such-command", args: ["lsp"] },
            { source: "python3", command: PYTHON, args: ["-m", "tether", "lsp"] },
        ];
        const found = await findServer(cands, (c) => probe(c), (l) => lines.push(l));
        assert.equal(found.found, cands[1]);
        assert.equal(found.tried.length, 1);
        assert.equal(lines.length, 2);
        assert.match(lines[0], /tether-no-such-command lsp \(tether on PATH\) does not work/);
    });

    it("builds one message naming every command tried, or the setting", async () => {
        const found = await findServer([{ source: "path", command: "tether-no-such-command", args: ["lsp"] }], (c) => probe(c));
        assert.equal(found.found, undefined);
        assert.match(notFoundMessage(found.tried), /no language server found \(tried tether-no-such-command lsp: tether-no-such-command: not found\)/);
        const setting = await findServer([{ source: "setting", command: "tether-no-such-command", args: ["lsp"] }], (c) => probe(c));
        assert.match(notFoundMessage(setting.tried), /tether\.serverCommand setting.*failed.*Fix the tether\.serverCommand setting/);
    });
});
