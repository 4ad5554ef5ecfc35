"""Schemas: the fields a record must have, their types, and coercion from the strings readers give."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Callable

from .readers import Record


class CoercionError(ValueError):
    pass


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "y", "t"):
        return True
    if text in ("0", "false", "no", "n", "f"):
        return False
    raise CoercionError(f"not a boolean: {value!r}")


def _to_date(value: Any) -> date:
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value).strip())


def _to_datetime(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value
    text = str(value).strip().replace("Z", "+00:00")
    return datetime.fromisoformat(text)


COERCE: dict[str, Callable[[Any], Any]] = {
    "str": lambda v: str(v),
    "int": lambda v: int(str(v).strip()),
    "float": lambda v: float(str(v).strip()),
    "bool": _to_bool,
    "date": _to_date,
    "datetime": _to_datetime,
}


@dataclass(frozen=True)
class Field:
    name: str
    type: str = "str"
    required: bool = True

    def coerce(self, value: Any) -> Any:
        if value is None:
            if self.required:
                raise CoercionError(f"{self.name}: missing")
            return None
        try:
            return COERCE[self.type](value)
        except (ValueError, TypeError) as e:
            raise CoercionError(f"{self.name}: {e}") from None


@dataclass
class Schema:
    name: str
    fields: list[Field] = field(default_factory=list)
    allow_extra: bool = False

    def names(self) -> list[str]:
        return [f.name for f in self.fields]

    def validate(self, record: Record) -> tuple[Record, list[str]]:
        """The record coerced to the schema's types, and the problems found (empty when valid)."""
        out: Record = {}
        errors: list[str] = []
        for f in self.fields:
            try:
                out[f.name] = f.coerce(record.get(f.name))
            except CoercionError as e:
                errors.append(str(e))
        extra = [k for k in record if k not in self.names()]
        if extra and not self.allow_extra:
            errors.append(f"unexpected fields: {', '.join(sorted(extra))}")
        elif extra:
            out.update({k: record[k] for k in extra})
        return out, errors


def load_schema(spec: dict) -> Schema:
    """A schema from its JSON spec: {"name": ..., "fields": [{"name", "type", "required"}], ...}."""
    fields = [Field(f["name"], f.get("type", "str"), f.get("required", True)) for f in spec["fields"]]
    unknown = [f.type for f in fields if f.type not in COERCE]
    if unknown:
        raise ValueError(f"unknown field types: {unknown}")
    return Schema(spec["name"], fields, spec.get("allow_extra", False))
