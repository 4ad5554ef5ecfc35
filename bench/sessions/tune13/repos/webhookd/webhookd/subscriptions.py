"""Customer subscriptions: which events go to which endpoint, signed with which secret."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass
class Subscription:
    id: str
    customer_id: str
    url: str
    secret: str
    events: frozenset[str]
    active: bool = True
    created_at: float = field(default_factory=time.time)

    def wants(self, event_type: str) -> bool:
        return self.active and (event_type in self.events or "*" in self.events)


def normalize_url(url: str) -> str:
    """The endpoint as we store and compare it: lower-case scheme and host, no default port, no fragment."""
    parts = urlsplit(url.strip())
    if parts.scheme not in DEFAULT_PORTS:
        raise ValueError(f"unsupported scheme in {url!r}")
    if not parts.hostname:
        raise ValueError(f"no host in {url!r}")
    host = parts.hostname.lower()
    netloc = host if parts.port in (None, DEFAULT_PORTS[parts.scheme]) else f"{host}:{parts.port}"
    path = parts.path or "/"
    return urlunsplit((parts.scheme.lower(), netloc, path, parts.query, ""))


def new_secret() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


class SubscriptionStore:
    """In-memory store; the API layer persists it through ``snapshot``/``load``."""

    def __init__(self) -> None:
        self._subs: dict[str, Subscription] = {}

    def add(self, customer_id: str, url: str, events: list[str], secret: str | None = None) -> Subscription:
        sub = Subscription(id="sub_" + secrets.token_hex(8), customer_id=customer_id, url=normalize_url(url),
                           secret=secret or new_secret(), events=frozenset(events))
        self._subs[sub.id] = sub
        return sub

    def get(self, sub_id: str) -> Subscription | None:
        return self._subs.get(sub_id)

    def remove(self, sub_id: str) -> None:
        self._subs.pop(sub_id, None)

    def deactivate(self, sub_id: str) -> None:
        if sub_id in self._subs:
            self._subs[sub_id].active = False

    def matching(self, event_type: str) -> list[Subscription]:
        return [s for s in self._subs.values() if s.wants(event_type)]

    def by_customer(self, customer_id: str) -> list[Subscription]:
        return sorted((s for s in self._subs.values() if s.customer_id == customer_id), key=lambda s: s.created_at)

    def snapshot(self) -> list[dict]:
        return [{"id": s.id, "customer_id": s.customer_id, "url": s.url, "secret": s.secret,
                 "events": sorted(s.events), "active": s.active, "created_at": s.created_at}
                for s in self._subs.values()]

    def load(self, rows: list[dict]) -> None:
        for row in rows:
            self._subs[row["id"]] = Subscription(id=row["id"], customer_id=row["customer_id"], url=row["url"],
                                                 secret=row["secret"], events=frozenset(row["events"]),
                                                 active=row.get("active", True), created_at=row["created_at"])
