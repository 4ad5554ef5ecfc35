"""Commands that report what needs a person: check (text, JSON, SARIF, GitHub annotations, a
pull request's comment in Markdown) and doctor."""

from __future__ import annotations

import sys
from pathlib import Path

from .. import __version__
from ..checks.findings import Finding, check, doctor, touched
from ..core.files import changed_lines, is_under
from .common import EXIT_FINDINGS, EXIT_OK, UsageError, out_json, parse_position, workspace
from .pull_request import pull_request_markdown


def cmd_check(args) -> int:
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs: give a positive number of processes")
    ws = workspace()
    ws.jobs = args.jobs
    rels = None
    if args.paths:
        rels = []
        for p in args.paths:
            rel = ws.rel(p, Path.cwd())
            target = ws.abs(rel)
            if not target.exists():
                path, line, _, _ = parse_position(p)
                if line is not None and ws.abs(ws.rel(path, Path.cwd())).exists():  # a position, as `context` takes
                    raise UsageError(f"{p}: check takes files and folders, not lines: `tether check {path}`")
                raise UsageError(f"{p}: no such file or folder")
            rels += [f for f in ws.files() if is_under(f, rel)] \
                if target.is_dir() else [rel]
    changed = changed_lines(ws.root, args.changed_since) if args.changed_since else None
    if changed is not None:  # one diff serves both: the files to check and the code a PR touches
        rels = sorted(set(changed) if rels is None else set(changed) & set(rels))
    findings = check(ws, rels)
    if args.format == "json":
        out_json({"findings": [f.to_json() for f in findings]})
    elif args.format == "sarif":
        out_json(sarif(findings))
    elif args.format == "markdown":
        notes = touched(ws, changed) if changed is not None else []
        sys.stdout.write(pull_request_markdown(findings, notes, args.changed_since))
    elif args.format == "github":
        for f in findings:
            print(f.to_github())
    else:
        for f in findings:
            print(f.to_text())
        print("no findings" if not findings else f"{len(findings)} finding(s)", file=sys.stderr)
    return EXIT_FINDINGS if findings else EXIT_OK


def sarif(findings) -> dict:
    """SARIF 2.1.0: one run, one rule per finding code (checks: per check id)."""
    rules, results = {}, []
    for f in findings:
        rule = f.extra.get("check") or f.code
        rules.setdefault(rule, {"id": rule, "name": f.code, "shortDescription": {"text": f.code.replace("-", " ")}})
        region = {"startLine": f.line}
        if f.range:
            region.update(startLine=f.range.sl + 1, startColumn=f.range.sc + 1, endLine=f.range.el + 1,
                          endColumn=f.range.ec + 1)
        result = {"ruleId": rule, "level": {"error": "error", "warning": "warning"}.get(f.severity, "note"),
                  "message": {"text": f.message},
                  "locations": [{"physicalLocation": {"artifactLocation": {"uri": f.path, "uriBaseId": "SRCROOT"},
                                                      "region": region}}]}
        if f.note_id:
            result["properties"] = {"note": f.note_id}
        results.append(result)
    return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": "tether", "version": __version__, "rules": list(rules.values())}},
                      "results": results}]}


def cmd_doctor(args) -> int:
    from ..agents.setup import hooks_that_cannot_start, hooks_written_before
    ws = workspace()
    findings = doctor(ws) + [Finding(rel, line, "error", "hook-cannot-start", why)
                             for rel, line, why in hooks_that_cannot_start(ws)]
    hints = [Finding(rel, line, "hint", "hook-written-before", why) for rel, line, why in hooks_written_before(ws)]
    if args.json:
        out_json({"findings": [{"file": f.path, "line": f.line, "severity": f.severity, "code": f.code,
                                "message": f.message, "note": f.note_id or None} for f in findings + hints]})
    else:
        for f in findings + hints:  # a hint is no problem: it does not change the exit status
            print(f"{f.path}:{f.line}: {f.severity}: {f.message}" + (f" [{f.note_id}]" if f.note_id else ""))
        print("no problems found" if not findings else f"{len(findings)} problem(s)", file=sys.stderr)
    return EXIT_FINDINGS if findings else EXIT_OK
