"""Watermark stamping: a line of text drawn diagonally across selected pages."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from pypdf import PageObject, PdfReader
from reportlab.lib.colors import Color
from reportlab.pdfgen import canvas

from .fonts import FontCache


@dataclass
class Watermark:
    text: str
    font: str = "Helvetica"
    size: float = 48.0
    opacity: float = 0.35
    gray: float = 0.5
    angle: float | None = None  # None: along the page diagonal


def diagonal_angle(width: float, height: float) -> float:
    return math.degrees(math.atan2(height, width))


def render(wm: Watermark, width: float, height: float, fonts: FontCache) -> PageObject:
    """A one-page PDF of the page's size with the watermark text centred on it."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(width, height))
    face = fonts.register(c, wm.font)
    c.setFont(face, wm.size)
    c.setFillColor(Color(wm.gray, wm.gray, wm.gray, alpha=wm.opacity))
    c.translate(width / 2, height / 2)
    c.rotate(wm.angle if wm.angle is not None else diagonal_angle(width, height))
    c.drawCentredString(0, -wm.size / 3, wm.text)
    c.showPage()
    c.save()
    buf.seek(0)
    return PdfReader(buf).pages[0]


def stamp_page(page: PageObject, wm: Watermark, fonts: FontCache) -> None:
    """Draws ``wm`` on ``page`` in place."""
    box = page.mediabox
    overlay = render(wm, float(box.width), float(box.height), fonts)
    page.merge_page(overlay)


def stamp(pages: list[PageObject], indexes: list[int], wm: Watermark, fonts: FontCache) -> int:
    """Stamps the pages at ``indexes``; returns how many were stamped."""
    for i in indexes:
        stamp_page(pages[i], wm, fonts)
    return len(indexes)
