"""Metadata scrubbing: the document Info dictionary and the XMP packet."""

from __future__ import annotations

import re

from pypdf import PdfWriter
from pypdf.generic import NameObject

# Info keys that say nothing about who made the file or where.
HARMLESS = {"/Title", "/Producer", "/Creator", "/Trapped"}

_XMP_AUTHOR = re.compile(rb"<dc:creator>.*?</dc:creator>", re.S)
_XMP_TOOL = re.compile(rb"<xmp:CreatorTool>.*?</xmp:CreatorTool>", re.S)


def scrub_info(info: dict[str, str], keep_title: bool = False) -> dict[str, str]:
    """The Info entries to write back after scrubbing."""
    out = {}
    for key, value in info.items():
        if key in HARMLESS:
            if key == "/Title" and not keep_title:
                continue
            out[key] = value
    return out


def scrub_xmp(packet: bytes) -> bytes:
    packet = _XMP_AUTHOR.sub(b"<dc:creator/>", packet)
    return _XMP_TOOL.sub(b"<xmp:CreatorTool/>", packet)


def scrub_document(writer: PdfWriter, keep_title: bool = False) -> list[str]:
    """Scrubs ``writer`` in place; returns the Info keys that were removed (for ``--verbose``)."""
    info = {str(k): str(v) for k, v in (writer.metadata or {}).items()}
    kept = scrub_info(info, keep_title=keep_title)
    removed = sorted(set(info) - set(kept))
    writer.metadata = None
    if kept:
        writer.add_metadata(kept)
    root = writer._root_object
    meta = root.get("/Metadata")
    if meta is not None:
        stream = meta.get_object()
        stream.set_data(scrub_xmp(stream.get_data()))
    if NameObject("/PieceInfo") in root:
        del root[NameObject("/PieceInfo")]
    return removed
