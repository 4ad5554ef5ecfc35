"""Transforms: small functions record -> record (or None to drop it), chained by ``compose``."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .readers import Record

Transform = Callable[[Record], "Record | None"]


def rename(mapping: dict[str, str]) -> Transform:
    def apply(record: Record) -> Record:
        return {mapping.get(k, k): v for k, v in record.items()}
    return apply


def drop_fields(*names: str) -> Transform:
    def apply(record: Record) -> Record:
        return {k: v for k, v in record.items() if k not in names}
    return apply


def keep_if(predicate: Callable[[Record], bool]) -> Transform:
    def apply(record: Record) -> Record | None:
        return record if predicate(record) else None
    return apply


def normalize_email(field: str = "email") -> Transform:
    def apply(record: Record) -> Record:
        value = record.get(field)
        if isinstance(value, str):
            return {**record, field: value.strip().lower()}
        return record
    return apply


def default(field: str, value: object) -> Transform:
    def apply(record: Record) -> Record:
        if record.get(field) is None:
            return {**record, field: value}
        return record
    return apply


def compose(transforms: Iterable[Transform]) -> Transform:
    chain = list(transforms)

    def apply(record: Record) -> Record | None:
        current: Record | None = record
        for t in chain:
            if current is None:
                return None
            current = t(current)
        return current
    return apply


REGISTRY: dict[str, Callable[..., Transform]] = {
    "rename": rename,
    "drop_fields": drop_fields,
    "normalize_email": normalize_email,
    "default": default,
}


def from_spec(specs: list[dict]) -> Transform:
    """A chain from the pipeline config: [{"op": "rename", "args": {...}}, ...]."""
    built = []
    for spec in specs:
        op = spec["op"]
        if op not in REGISTRY:
            raise ValueError(f"unknown transform {op!r}")
        args = spec.get("args", {})
        built.append(REGISTRY[op](*args) if isinstance(args, list) else REGISTRY[op](**args))
    return compose(built)
