"""When to try a failed message again."""

from __future__ import annotations

import re

MAX_ATTEMPTS = 5
BASE_DELAY = 60.0

# "451 4.7.1 Greylisted, try again later" -> (451, "4.7.1", "Greylisted, try again later")
_REPLY = re.compile(r"^(\d{3})[ -](?:(\d\.\d{1,3}\.\d{1,3})\s+)?(.*)$")


class GiveUp(Exception):
    """The message has used all its attempts."""


def next_delay(attempts: int) -> float:
    """Seconds to wait before attempt number ``attempts + 1``."""
    if attempts >= MAX_ATTEMPTS:
        raise GiveUp(f"gave up after {attempts} attempts")
    return BASE_DELAY * (attempts + 1)


def is_retryable(code: int) -> bool:
    """4xx SMTP replies are temporary; 5xx are permanent."""
    return 400 <= code < 500


def parse_reply(line: str) -> tuple[int, str | None, str]:
    """An SMTP reply line split into its code, enhanced status code (if any) and text."""
    m = _REPLY.match(line.strip())
    if not m:
        raise ValueError(f"not an SMTP reply: {line!r}")
    return int(m.group(1)), m.group(2), m.group(3)


def describe(attempts: int) -> str:
    """A human-readable retry plan, for the admin page."""
    if attempts >= MAX_ATTEMPTS:
        return "no more attempts"
    left = MAX_ATTEMPTS - attempts
    return f"next try in {next_delay(attempts):.0f}s, {left} attempt{'s' if left != 1 else ''} left"
