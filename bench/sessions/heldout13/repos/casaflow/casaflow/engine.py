"""The engine: a device report wakes the rules it triggers; their actions go out as commands."""

from __future__ import annotations

import logging
from typing import Callable

from casaflow.devices import Registry
from casaflow.rules import Action, Rule

log = logging.getLogger("casaflow.engine")

Send = Callable[[str, dict], None]


class Engine:
    def __init__(self, registry: Registry, rules: list[Rule], send: Send) -> None:
        self.registry = registry
        self.send = send
        self._by_trigger: dict[str, list[Rule]] = {}
        for rule in sorted(rules, key=lambda r: -r.priority):
            self._by_trigger.setdefault(rule.trigger, []).append(rule)

    def on_report(self, device: str, state: dict) -> list[Action]:
        self.registry.update(device, state)
        done: list[Action] = []
        for rule in self._by_trigger.get(device, []):
            if all(c.evaluate(self.registry) for c in rule.conditions):
                log.info("rule %s fired", rule.name)
                for action in rule.actions:
                    self._dispatch(action)
                    done.append(action)
        return done

    def _dispatch(self, action: Action) -> None:
        self.send(action.device, action.command)
