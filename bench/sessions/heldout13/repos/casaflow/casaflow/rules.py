"""Rules: when a device reports, if the conditions hold, do the actions."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import yaml

from casaflow.conditions import Condition, parse_condition


@dataclass(frozen=True)
class Action:
    device: str
    command: dict


@dataclass
class Rule:
    name: str
    trigger: str  # the device whose report wakes the rule
    conditions: list[Condition] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    priority: int = 0


def load_rules(path: str) -> list[Rule]:
    with open(path, encoding="utf-8") as f:
        raw = yaml.safe_load(f) or []
    rules = []
    for i, entry in enumerate(raw):
        try:
            rules.append(
                Rule(
                    name=entry["name"],
                    trigger=entry["when"],
                    conditions=[parse_condition(c) for c in entry.get("if", [])],
                    actions=[Action(a["device"], a["set"]) for a in entry.get("do", [])],
                    priority=int(entry.get("priority", 0)),
                )
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{path}: rule #{i + 1}: {e}") from None
    return rules
