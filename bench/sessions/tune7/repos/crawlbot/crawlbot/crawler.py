"""The crawl loop: frontier -> robots -> rate limit -> fetch -> store -> links."""

from __future__ import annotations

import logging
import re
from urllib.parse import urljoin, urlsplit

from .fetcher import FetchError, Fetcher
from .frontier import Frontier
from .ratelimit import HostLimiter
from .robots import RobotsCache
from .storage import PageStore

log = logging.getLogger("crawlbot")
HREF = re.compile(rb"""<a\s[^>]*href\s*=\s*["']([^"'#]+)""", re.I)


def extract_links(base: str, body: bytes) -> list[str]:
    out = []
    for m in HREF.finditer(body):
        href = m.group(1).decode("utf-8", errors="ignore").strip()
        url = urljoin(base, href)
        if urlsplit(url).scheme in ("http", "https"):
            out.append(url)
    return out


class Crawler:
    def __init__(self, http, store: PageStore, limiter: HostLimiter | None = None, max_pages: int = 1000):
        self.frontier = Frontier()
        self.robots = RobotsCache(http)
        self.limiter = limiter or HostLimiter()
        self.fetcher = Fetcher(http)
        self.store = store
        self.max_pages = max_pages
        self.fetched = 0
        self.errors: list[FetchError] = []

    def seed(self, *urls: str) -> None:
        for u in urls:
            self.frontier.push(u)

    def step(self) -> bool:
        item = self.frontier.pop()
        if item is None:
            return False
        parts = urlsplit(item.url)
        rules = self.robots.rules_for(parts.scheme, parts.netloc)
        if not rules.allowed(parts.path or "/"):
            log.info("robots: skip %s", item.url)
            return True
        if rules.crawl_delay is not None:
            self.limiter.set_delay(item.url, rules.crawl_delay)
        self.limiter.wait(item.url)
        try:
            page = self.fetcher.fetch(item.url)
        except FetchError as exc:
            self.errors.append(exc)
            return True
        self.store.save(page)
        self.fetched += 1
        if "html" in page.content_type:
            for link in extract_links(page.final_url, page.body):
                self.frontier.push(link, item.depth + 1, referrer=item.url)
        return True

    def run(self) -> int:
        while self.fetched < self.max_pages and self.step():
            pass
        return self.fetched
