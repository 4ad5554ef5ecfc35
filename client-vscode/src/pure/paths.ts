// Where a file's tether workspace is: the nearest folder above it holding `.tether/` (the
// server's own rule). Node's fs only, no vscode import.
import { statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";

function isDir(p: string): boolean {
    try {
        return statSync(p).isDirectory();
    } catch {
        return false;
    }
}

/** The folder holding `.tether/` at or above `path`, or undefined. */
export function tetherRoot(path: string, dirExists: (p: string) => boolean = isDir): string | undefined {
    for (let dir = path; ; dir = dirname(dir)) {
        if (dirExists(join(dir, ".tether"))) {
            return dir;
        }
        if (dirname(dir) === dir) {
            return undefined;
        }
    }
}

/** `path` relative to `root` with forward slashes (how notes name files), or undefined outside it. */
export function relativeTo(root: string, path: string): string | undefined {
    const rel = relative(root, path);
    if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
        return undefined;
    }
    return rel.split(sep).join("/");
}
