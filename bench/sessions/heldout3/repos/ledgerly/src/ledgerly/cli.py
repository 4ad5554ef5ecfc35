"""ledgerly command line."""

import argparse
import json
import sys
from pathlib import Path

from ledgerly.accounts import Account, AccountType, Chart
from ledgerly.journal import Journal
from ledgerly.reports import trial_balance


def load_chart(path):
    chart = Chart()
    for raw in json.loads(Path(path).read_text(encoding="utf-8")):
        chart.add(Account(raw["code"], raw["name"], AccountType(raw["type"]), raw.get("currency", "EUR")))
    return chart


def main(argv=None):
    ap = argparse.ArgumentParser(prog="ledgerly")
    ap.add_argument("--chart", default="chart.json")
    ap.add_argument("command", choices=["accounts", "trial-balance"])
    args = ap.parse_args(argv)
    chart = load_chart(args.chart)
    if args.command == "accounts":
        for code, acct in sorted(chart.accounts.items()):
            print(f"{code:<8}{acct.type.value:<11}{acct.name}")
    elif args.command == "trial-balance":
        journal = Journal(chart)
        for code, name, dr, cr in trial_balance(journal):
            print(f"{code:<8}{name:<30}{dr:>12}{cr:>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
