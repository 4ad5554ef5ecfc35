"""Email templates: a subject and a body with ``{placeholders}``."""

from __future__ import annotations

import string
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Template:
    name: str
    subject: str
    body: str

    def placeholders(self) -> set[str]:
        found = set()
        for text in (self.subject, self.body):
            for _literal, field_name, _spec, _conv in string.Formatter().parse(text):
                if field_name:
                    found.add(field_name)
        return found


class _Lenient(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render(template: Template, values: dict[str, object]) -> tuple[str, str]:
    """The subject and body with the placeholders filled in from ``values``."""
    data = _Lenient({k: str(v) for k, v in values.items()})
    return template.subject.format_map(data), template.body.format_map(data)


class TemplateStore:
    """Templates loaded from a folder: ``<name>.txt``, first line the subject."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._cache: dict[str, Template] = {}

    def get(self, name: str) -> Template:
        if name not in self._cache:
            path = self.folder / f"{name}.txt"
            text = path.read_text(encoding="utf-8")
            subject, _, body = text.partition("\n")
            self._cache[name] = Template(name, subject.removeprefix("Subject:").strip(), body.lstrip("\n"))
        return self._cache[name]

    def names(self) -> list[str]:
        return sorted(p.stem for p in self.folder.glob("*.txt"))
