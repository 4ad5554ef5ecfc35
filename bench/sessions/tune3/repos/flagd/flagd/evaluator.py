"""Evaluates a flag for one user context."""

from __future__ import annotations

from .definitions import Flag
from .rollout import in_rollout
from .targeting import evaluate_rules


class UnknownFlag(KeyError):
    pass


class Evaluator:
    def __init__(self, flags: dict[str, Flag]):
        self.flags = flags

    def replace(self, flags: dict[str, Flag]) -> None:
        self.flags = flags

    def evaluate(self, flag_key: str, context: dict) -> tuple[str, object]:
        flag = self.flags.get(flag_key)
        if flag is None:
            raise UnknownFlag(flag_key)
        if not flag.enabled:
            return flag.default, flag.variants[flag.default]
        targeted = evaluate_rules(flag.rules, context)
        if targeted is not None:
            return targeted, flag.variants[targeted]
        user_id = str(context.get("user_id", ""))
        on = next((v for v in flag.variants if v != flag.default), flag.default)
        name = on if in_rollout(flag.key, user_id, flag.rollout) else flag.default
        return name, flag.variants[name]
