"""Bounce handling: classify a DSN and remember addresses that keep bouncing."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

log = logging.getLogger("mailq.bounces")

_STATUS = re.compile(r"^Status:\s*([245])\.(\d{1,3})\.(\d{1,3})", re.MULTILINE | re.IGNORECASE)
_RECIPIENT = re.compile(r"^Final-Recipient:\s*rfc822;\s*(\S+)", re.MULTILINE | re.IGNORECASE)


@dataclass(frozen=True)
class Bounce:
    address: str
    status: str

    @property
    def hard(self) -> bool:
        return self.status.startswith("5.")


def parse_dsn(text: str) -> Bounce | None:
    """The bounce a delivery status notification reports, or None if it is not one."""
    status = _STATUS.search(text)
    recipient = _RECIPIENT.search(text)
    if not status or not recipient:
        return None
    return Bounce(recipient.group(1).lower(), ".".join(status.groups()))


class BounceTracker:
    """Counts bounces per address."""

    def __init__(self):
        self.counts: dict[str, int] = {}

    def record(self, bounce: Bounce) -> None:
        self.counts[bounce.address] = self.counts.get(bounce.address, 0) + 1
        log.info("bounce %s for %s", bounce.status, bounce.address)

    def count(self, address: str) -> int:
        return self.counts.get(address.lower(), 0)
