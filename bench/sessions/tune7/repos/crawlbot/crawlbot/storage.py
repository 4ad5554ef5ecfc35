"""Storing fetched pages on disk: one gzip file per page, and an index."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from pathlib import Path

from .fetcher import Page


class PageStore:
    def __init__(self, root: str | os.PathLike) -> None:
        self.root = Path(root)
        (self.root / "pages").mkdir(parents=True, exist_ok=True)
        self.index_path = self.root / "index.jsonl"

    def key(self, url: str) -> str:
        return hashlib.sha1(url.encode("utf-8")).hexdigest()

    def path_for(self, url: str) -> Path:
        k = self.key(url)
        return self.root / "pages" / k[:2] / f"{k}.html.gz"

    def save(self, page: Page) -> Path:
        path = self.path_for(page.url)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        with gzip.open(tmp, "wb") as fh:
            fh.write(page.body)
        os.replace(tmp, path)
        entry = {"url": page.url, "final_url": page.final_url, "status": page.status,
                 "content_type": page.content_type, "fetched_at": page.fetched_at, "file": str(path.relative_to(self.root))}
        with open(self.index_path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry) + "\n")
        return path

    def has(self, url: str) -> bool:
        return self.path_for(url).exists()

    def load(self, url: str) -> bytes | None:
        path = self.path_for(url)
        if not path.exists():
            return None
        with gzip.open(path, "rb") as fh:
            return fh.read()
