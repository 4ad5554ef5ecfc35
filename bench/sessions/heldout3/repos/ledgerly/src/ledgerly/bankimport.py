"""Importing bank statements (CSV) and matching their lines to accounts."""

import csv
import re
from dataclasses import dataclass
from datetime import datetime

from ledgerly.money import parse_amount


@dataclass
class BankLine:
    date: object
    payee: str
    description: str
    amount: object


@dataclass
class MatchRule:
    pattern: str
    account: str
    field: str = "payee"

    def matches(self, line):
        return re.search(self.pattern, getattr(line, self.field), re.IGNORECASE) is not None


def read_statement(path, date_format="%Y-%m-%d", delimiter=",", decimal_comma=False):
    lines = []
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter=delimiter):
            lines.append(BankLine(
                date=datetime.strptime(row["date"], date_format).date(),
                payee=row.get("payee", ""),
                description=row.get("description", ""),
                amount=parse_amount(row["amount"], decimal_comma=decimal_comma),
            ))
    return lines


def match_rule(line, rules):
    hits = [r for r in rules if r.matches(line)]
    return hits[0] if hits else None


def load_rules(path):
    rules = []
    with open(path, encoding="utf-8") as fh:
        for n, raw in enumerate(fh, 1):
            raw = raw.strip()
            if not raw or raw.startswith("#"):
                continue
            try:
                pattern, account = raw.rsplit("=>", 1)
            except ValueError:
                raise ValueError(f"{path}:{n}: expected 'pattern => account'") from None
            rules.append(MatchRule(pattern.strip(), account.strip()))
    return rules
