"""ledgerline's command line: import a statement, print a trial balance, close a period."""

from __future__ import annotations

import argparse
import csv
import sys
from datetime import date
from pathlib import Path

from ledgerline.accounts import Chart
from ledgerline.importer import import_csv
from ledgerline.journal import Journal
from ledgerline.reports import render_table, trial_balance


def load_chart(path: Path) -> Chart:
    with open(path, newline="", encoding="utf-8") as f:
        return Chart.from_rows(csv.DictReader(f))


def cmd_import(args: argparse.Namespace) -> int:
    chart = load_chart(args.chart)
    result = import_csv(args.statement, chart, args.bank, args.currency, card=args.card)
    for e in result.entries:
        print(f"{e.date.isoformat()}  {e.memo[:40]:<40}  {e.postings[0].amount}")
    for line, why in result.skipped:
        print(f"skipped line {line}: {why}", file=sys.stderr)
    return 1 if result.skipped and args.strict else 0


def cmd_tb(args: argparse.Namespace) -> int:
    chart = load_chart(args.chart)
    journal = Journal(chart)
    for statement in args.statements:
        for e in import_csv(statement, chart, args.bank, args.currency).entries:
            journal.post(e)
    until = date.fromisoformat(args.until) if args.until else None
    tb = trial_balance(journal, until)
    rows = [[a.code + " " + a.name, f"{d:,.2f}" if d else "", f"{c:,.2f}" if c else ""] for a, d, c in tb]
    print(render_table(["account", "debit", "credit"], rows))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ledgerline")
    parser.add_argument("--chart", type=Path, default=Path("chart.csv"))
    parser.add_argument("--bank", default="1200", help="the bank account's code")
    parser.add_argument("--currency", default="EUR")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("import", help="parse a bank statement and print its entries")
    p.add_argument("statement", type=Path)
    p.add_argument("--card", action="store_true", help="the statement is a credit card export")
    p.add_argument("--strict", action="store_true")
    p.set_defaults(run=cmd_import)
    p = sub.add_parser("tb", help="trial balance of one or more statements")
    p.add_argument("statements", type=Path, nargs="+")
    p.add_argument("--until")
    p.set_defaults(run=cmd_tb)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
