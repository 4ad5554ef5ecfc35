"""A small font cache: TrueType files found in font folders, registered with reportlab once."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

BUILTIN = {"Helvetica", "Helvetica-Bold", "Times-Roman", "Times-Bold", "Courier", "Courier-Bold"}
DEFAULT_DIRS = ["/usr/share/fonts", "~/.fonts", "~/Library/Fonts"]


@dataclass(frozen=True)
class FontFile:
    family: str
    style: str  # "regular", "bold", "italic", "bolditalic"
    path: Path


def style_of(stem: str) -> tuple[str, str]:
    """``"Inter-BoldItalic"`` -> ``("Inter", "bolditalic")``."""
    family, _, tail = stem.partition("-")
    tail = tail.lower()
    if "bold" in tail and "italic" in tail:
        return family, "bolditalic"
    if "bold" in tail:
        return family, "bold"
    if "italic" in tail or "oblique" in tail:
        return family, "italic"
    return family, "regular"


class FontCache:
    def __init__(self, dirs: list[str] | None = None):
        self.dirs = [Path(os.path.expanduser(d)) for d in (dirs or DEFAULT_DIRS)]
        self._files: dict[str, FontFile] = {}
        self._registered: set[str] = set()
        self._scanned = False

    def scan(self) -> None:
        for d in self.dirs:
            if not d.is_dir():
                continue
            for p in sorted(d.rglob("*.ttf")):
                family, style = style_of(p.stem)
                self._files[family.lower()] = FontFile(family, style, p)
        self._scanned = True

    def get(self, name: str) -> FontFile | None:
        if not self._scanned:
            self.scan()
        family, style = style_of(name)
        return self._files.get(family.lower())

    def register(self, c, name: str) -> str:
        """The face name to pass to ``canvas.setFont`` for ``name``, registering it if needed."""
        if name in BUILTIN:
            return name
        if name in self._registered:
            return name
        found = self.get(name)
        if found is None:
            return "Helvetica"
        pdfmetrics.registerFont(TTFont(name, str(found.path)))
        self._registered.add(name)
        return name
