"""Page range expressions as typed on the command line: ``1-3,5,9-``.

Pages are 1-based in the expression (that is what people see in a viewer) and 0-based
in the returned indexes (that is what pypdf wants).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PART = re.compile(r"^\s*(\d+)?\s*(-)?\s*(\d+)?\s*$")


class PageRangeError(ValueError):
    """The expression cannot be parsed, or names pages the document does not have."""


@dataclass(frozen=True)
class PageRange:
    start: int | None  # 1-based, None means "from the first page"
    end: int | None  # 1-based inclusive, None means "to the last page"

    def resolve(self, total: int) -> range:
        """The 0-based page indexes this range covers in a document of ``total`` pages."""
        first = 1 if self.start is None else self.start
        last = total if self.end is None else self.end
        if first > last:
            raise PageRangeError(f"range {first}-{last} runs backwards")
        return range(first - 1, last)


def parse_part(part: str) -> PageRange:
    m = _PART.match(part)
    if not m or not any(m.groups()):
        raise PageRangeError(f"not a page range: {part!r}")
    start, dash, end = m.groups()
    if not dash:
        if end is not None:
            raise PageRangeError(f"not a page range: {part!r}")
        n = int(start)
        return PageRange(n, n)
    return PageRange(int(start) if start else None, int(end) if end else None)


def parse_ranges(expr: str, total: int) -> list[int]:
    """0-based page indexes for ``expr`` in a document of ``total`` pages."""
    if not expr.strip():
        return list(range(total))
    pages: set[int] = set()
    for part in expr.split(","):
        pages.update(parse_part(part).resolve(total))
    return sorted(pages)


def describe(indexes: list[int]) -> str:
    """The inverse, for log lines: ``[0, 1, 2, 4]`` -> ``"1-3,5"``."""
    out: list[str] = []
    run: list[int] = []
    for i in indexes:
        if run and i == run[-1] + 1:
            run.append(i)
            continue
        if run:
            out.append(_fmt(run))
        run = [i]
    if run:
        out.append(_fmt(run))
    return ",".join(out)


def _fmt(run: list[int]) -> str:
    return str(run[0] + 1) if len(run) == 1 else f"{run[0] + 1}-{run[-1] + 1}"
