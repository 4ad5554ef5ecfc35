"""Output file names: ``{stem}``, ``{n}``, ``{date}`` templates and collision handling."""

from __future__ import annotations

import datetime as _dt
import string
from pathlib import Path

DEFAULT_TEMPLATE = "{stem}-stamped"
_FIELDS = {"stem", "n", "date", "ext"}


def check_template(template: str) -> None:
    for _, field, _, _ in string.Formatter().parse(template):
        if field is not None and field not in _FIELDS:
            raise ValueError(f"unknown field {{{field}}} in output template (known: {sorted(_FIELDS)})")


def _mk_name(src: Path, template: str, n: int, today: _dt.date | None = None) -> str:
    today = today or _dt.date.today()
    name = template.format(stem=src.stem, n=n, date=today.isoformat(), ext=src.suffix.lstrip("."))
    return name if name.lower().endswith(".pdf") else name + ".pdf"


def output_path(src: Path, out_dir: Path | None, template: str = DEFAULT_TEMPLATE, n: int = 1) -> Path:
    """Where the result of processing ``src`` is written."""
    check_template(template)
    folder = out_dir if out_dir is not None else src.parent
    return folder / _mk_name(src, template, n)


def unique(path: Path) -> Path:
    """``path``, or ``path`` with `` (2)``, `` (3)`` … before the suffix if it exists."""
    if not path.exists():
        return path
    i = 2
    while True:
        candidate = path.with_name(f"{path.stem} ({i}){path.suffix}")
        if not candidate.exists():
            return candidate
        i += 1
