"""robots.txt: fetching, parsing and a per-host cache of the rules."""

from __future__ import annotations

import gzip
import time
from dataclasses import dataclass, field

from . import USER_AGENT

REFRESH_SECONDS = 24 * 3600
AGENT_TOKEN = "crawlbot"


@dataclass
class RobotsRules:
    allow: list[str] = field(default_factory=list)
    disallow: list[str] = field(default_factory=list)
    crawl_delay: float | None = None

    def allowed(self, path: str) -> bool:
        """Longest match wins; an Allow beats a Disallow of the same length."""
        best, verdict = -1, True
        for rule in self.disallow:
            if rule and path.startswith(rule) and len(rule) > best:
                best, verdict = len(rule), False
        for rule in self.allow:
            if path.startswith(rule) and len(rule) >= best:
                best, verdict = len(rule), True
        return verdict


ALLOW_ALL = RobotsRules()


def parse_robots(text: str, agent: str = AGENT_TOKEN) -> RobotsRules:
    """The rules of the group for ``agent``, or of the ``*`` group if there is none."""
    groups: dict[str, RobotsRules] = {}
    current: list[str] = []
    in_rules = False
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or ":" not in line:
            continue
        key, value = (s.strip() for s in line.split(":", 1))
        key = key.lower()
        if key == "user-agent":
            if in_rules:
                current, in_rules = [], False
            current.append(value.lower())
            for name in current:
                groups.setdefault(name, RobotsRules())
            continue
        in_rules = True
        for name in current:
            rules = groups[name]
            if key == "disallow":
                rules.disallow.append(value)
            elif key == "allow":
                rules.allow.append(value)
            elif key == "crawl-delay":
                try:
                    rules.crawl_delay = float(value)
                except ValueError:
                    pass
    return groups.get(agent) or groups.get("*") or RobotsRules()


class RobotsCache:
    """The rules of each host, fetched on first use and refreshed once a day."""

    def __init__(self, http, clock=time.monotonic):
        self.http = http
        self.clock = clock
        self._rules: dict[str, tuple[float, RobotsRules]] = {}

    def _download(self, scheme: str, host: str):
        headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
        resp = self.http.get(f"{scheme}://{host}/robots.txt", headers=headers, timeout=10)
        body = resp.content
        if body[:2] == b"\x1f\x8b":
            body = gzip.decompress(body)
        return resp.status_code, body.decode("utf-8", errors="replace")

    def rules_for(self, scheme: str, host: str) -> RobotsRules:
        now = self.clock()
        cached = self._rules.get(host)
        if cached and now - cached[0] < REFRESH_SECONDS:
            return cached[1]
        try:
            status, text = self._download(scheme, host)
        except OSError:
            status, text = 0, ""
        if status == 200:
            rules = parse_robots(text)
        else:
            rules = ALLOW_ALL
        self._rules[host] = (now, rules)
        return rules

    def allowed(self, scheme: str, host: str, path: str) -> bool:
        return self.rules_for(scheme, host).allowed(path)
