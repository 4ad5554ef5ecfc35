from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Source:
    name: str
    start_url: str
    every_minutes: int = 24 * 60
    max_pages: int = 50


@dataclass
class Settings:
    db_path: Path = Path("harvest.sqlite3")
    user_agent: str = "harvest-bot/0.7 (+https://example.org/bot)"
    slack_webhook: str | None = None
    sources: list[Source] = field(default_factory=list)


def load(path: Path) -> Settings:
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    sources = [Source(**s) for s in raw.get("source", [])]
    return Settings(
        db_path=Path(raw.get("db_path", "harvest.sqlite3")),
        user_agent=raw.get("user_agent", Settings.user_agent),
        slack_webhook=os.environ.get("HARVEST_SLACK_WEBHOOK") or raw.get("slack_webhook"),
        sources=sources,
    )
