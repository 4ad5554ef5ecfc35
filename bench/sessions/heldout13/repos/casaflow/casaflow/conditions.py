"""Conditions a rule checks before it acts: a device attribute compared to a value."""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass

from casaflow.devices import Registry

OPERATORS = {
    "==": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
}


@dataclass(frozen=True)
class Condition:
    device: str
    attribute: str
    op: str
    value: object

    def evaluate(self, registry: Registry) -> bool:
        state = registry.get(self.device).state
        return OPERATORS[self.op](state.get(self.attribute), self.value)


def parse_condition(text: str) -> Condition:
    """``"hall_sensor.motion == true"`` -> Condition."""
    for op in sorted(OPERATORS, key=len, reverse=True):
        left, sep, right = text.partition(f" {op} ")
        if sep:
            device, _, attribute = left.strip().partition(".")
            if not attribute:
                raise ValueError(f"condition {text!r}: expected device.attribute on the left")
            return Condition(device, attribute, op, _literal(right.strip()))
    raise ValueError(f"condition {text!r}: no operator")


def _literal(text: str) -> object:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return float(text) if "." in text else int(text)
    except ValueError:
        return text.strip("'\"")
