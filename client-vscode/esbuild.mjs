// Bundles the extension (dist/extension.js, vscode external), or with --tests each test file
// under test/ into out/ for node's test runner.
import { build } from "esbuild";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const production = process.argv.includes("--production");
const tests = process.argv.includes("--tests");

if (!tests) await build({
    entryPoints: ["src/extension.ts"],
    bundle: true,
    outfile: "dist/extension.js",
    external: ["vscode"],
    format: "cjs",
    platform: "node",
    target: "node18",
    sourcemap: !production,
    minify: production,
    logLevel: "warning",
});

if (tests) {
    const entries = [];
    for (const dir of ["test/unit", "test/protocol"]) {
        for (const f of readdirSync(dir)) {
            if (f.endsWith(".test.ts")) {
                entries.push(join(dir, f));
            }
        }
    }
    rmSync("out", { recursive: true, force: true });
    await build({
        entryPoints: entries,
        bundle: true,
        outdir: "out",
        outbase: ".",
        format: "cjs",
        platform: "node",
        target: "node20",
        sourcemap: "inline",
        logLevel: "warning",
    });
}
