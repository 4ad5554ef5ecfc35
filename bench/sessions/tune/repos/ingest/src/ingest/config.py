import tomllib
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Config:
    database: Path
    inbox: Path
    delimiter: str = ","
    batch_size: int = 1000
    columns: dict[str, str] = field(default_factory=dict)


def load_config(path: Path) -> Config:
    with open(path, "rb") as f:
        raw = tomllib.load(f)
    src = raw.get("source", {})
    return Config(
        database=Path(raw["database"]),
        inbox=Path(src.get("inbox", "inbox")),
        delimiter=src.get("delimiter", ","),
        batch_size=int(raw.get("batch_size", 1000)),
        columns=raw.get("columns", {}),
    )
