"""Targeting rules: send users with matching attributes to a given variant."""

from __future__ import annotations

OPERATORS = {
    "eq": lambda a, b: a == b,
    "in": lambda a, b: a in b,
    "ends_with": lambda a, b: isinstance(a, str) and a.endswith(b),
    "gte": lambda a, b: a is not None and a >= b,
}


def match_rule(rule: dict, context: dict) -> bool:
    for cond in rule.get("when", []):
        op = OPERATORS[cond["op"]]
        if not op(context.get(cond["attr"]), cond["value"]):
            return False
    return True


def evaluate_rules(rules: list[dict], context: dict) -> str | None:
    """The variant the rules send this context to, or None."""
    matched = [r for r in rules if match_rule(r, context)]
    if not matched:
        return None
    return matched[-1]["variant"]
