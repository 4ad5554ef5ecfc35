"""Flag definitions, loaded from the dicts our YAML files parse into."""

from __future__ import annotations

from dataclasses import dataclass, field


class DefinitionError(ValueError):
    pass


@dataclass
class Flag:
    key: str
    variants: dict[str, object]
    default: str
    rollout: int = 100
    rules: list[dict] = field(default_factory=list)
    enabled: bool = True


def parse_flag(key: str, raw: dict) -> Flag:
    if "variants" not in raw:
        raise DefinitionError(f"{key}: no variants")
    variants = dict(raw["variants"])
    default = raw.get("default", next(iter(variants)))
    if default not in variants:
        raise DefinitionError(f"{key}: default {default!r} is not a variant")
    rollout = int(raw.get("rollout", 100))
    if not 0 <= rollout <= 100:
        raise DefinitionError(f"{key}: rollout {rollout} out of range")
    return Flag(key=key, variants=variants, default=default, rollout=rollout,
                rules=list(raw.get("rules", [])), enabled=bool(raw.get("enabled", True)))


def load_flags(doc: dict) -> dict[str, Flag]:
    flags = {}
    for key, raw in (doc.get("flags") or {}).items():
        flags[key] = parse_flag(key, raw)
    return flags
