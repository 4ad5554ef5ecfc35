import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { relativeTo, tetherRoot } from "../../src/pure/paths";

describe("a file's tether workspace", () => {
    const top = mkdtempSync(join(tmpdir(), "tether-paths-"));
    after(() => rmSync(top, { recursive: true, force: true }));
    mkdirSync(join(top, "repo", ".tether", "notes"), { recursive: true });
    mkdirSync(join(top, "repo", "src", "deep"), { recursive: true });
    writeFileSync(join(top, "repo", "src", "deep", "a.py"), "");
    writeFileSync(join(top, "loose.py"), "");

    it("is the nearest folder above holding .tether/", () => {
        assert.equal(tetherRoot(join(top, "repo", "src", "deep", "a.py")), join(top, "repo"));
        assert.equal(tetherRoot(join(top, "repo")), join(top, "repo"));
        assert.equal(tetherRoot(join(top, "loose.py")), undefined);
    });

    it("names files relative to it with forward slashes, nothing outside", () => {
        assert.equal(relativeTo(join(top, "repo"), join(top, "repo", "src", "deep", "a.py")), "src/deep/a.py");
        assert.equal(relativeTo(join(top, "repo"), join(top, "loose.py")), undefined);
        assert.equal(relativeTo(join(top, "repo"), join(top, "repo")), "");
        assert.equal(relativeTo(join(top, "repo"), join(top, "repo..x", "a.py")), undefined);
    });
});
