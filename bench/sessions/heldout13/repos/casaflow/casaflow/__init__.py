"""casaflow: a small rule engine for a home hub (devices over MQTT, rules in YAML)."""

from casaflow.engine import Engine
from casaflow.rules import Rule

__all__ = ["Engine", "Rule"]
