"""Loading meter exports: the vendor's CSV and our columnar JSON dumps (parquet-ish).

Both return series indexed in UTC and in file order; exports are written in time order.
"""

from __future__ import annotations

import csv
import json
from datetime import datetime, timedelta
from pathlib import Path

from .series import NaN, Series
from .tz import localize, to_utc

TS_FORMAT = "%d.%m.%Y %H:%M"


def _parse_ts(text: str, tz: str) -> datetime:
    text = text.strip()
    # The vendor writes midnight at the end of a day as "24:00" of that day.
    if text.endswith(" 24:00"):
        day = datetime.strptime(text[:-6], "%d.%m.%Y")
        return to_utc(localize(day + timedelta(days=1), tz))
    return to_utc(localize(datetime.strptime(text, TS_FORMAT), tz))


def _parse_value(text: str) -> float:
    text = text.strip()
    if not text or text == "-":
        return NaN
    return float(text.replace(",", "."))


def load_csv(path: str | Path, tz: str, ts_col: str = "Zeitstempel", value_col: str = "Wert") -> Series:
    with open(path, newline="", encoding="utf-8-sig") as fh:
        rows = list(csv.DictReader(fh, delimiter=";"))
    index = [_parse_ts(r[ts_col], tz) for r in rows]
    vals = [_parse_value(r[value_col]) for r in rows]
    return Series(index, vals, Path(path).stem)


def load_columnar(path: str | Path) -> Series:
    """``{"name": ..., "index": [ISO 8601 with offset, ...], "values": [float | null, ...]}``"""
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    index = [to_utc(datetime.fromisoformat(t)) for t in doc["index"]]
    vals = [NaN if v is None else float(v) for v in doc["values"]]
    return Series(index, vals, doc.get("name", ""))


def dump_columnar(series: Series, path: str | Path) -> None:
    doc = {"name": series.name, "index": [t.isoformat() for t in series.index],
           "values": [None if v != v else v for v in series.vals]}
    Path(path).write_text(json.dumps(doc), encoding="utf-8")
