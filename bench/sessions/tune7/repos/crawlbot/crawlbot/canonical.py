"""Canonical URLs: one spelling per page, so the frontier and the store see each page once."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

DEFAULT_PORTS = {"http": 80, "https": 443}
TRACKING_PREFIXES = ("utm_",)
TRACKING_PARAMS = {"fbclid", "gclid", "mc_eid", "igshid"}


def _is_tracking(name: str) -> bool:
    return name in TRACKING_PARAMS or name.startswith(TRACKING_PREFIXES)


def canonicalize(url: str) -> str:
    """The canonical form of ``url``: lower-case scheme and host, no default port, no
    fragment, tracking parameters dropped and the rest sorted, an empty path as ``/``."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower().rstrip(".")
    port = parts.port
    netloc = host if port is None or DEFAULT_PORTS.get(scheme) == port else f"{host}:{port}"
    path = parts.path or "/"
    query = urlencode(sorted((k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                             if not _is_tracking(k)))
    return urlunsplit((scheme, netloc, path, query, ""))


def host_of(url: str) -> str:
    return (urlsplit(url).hostname or "").lower()


class SeenSet:
    """Canonical URLs already scheduled; in memory, one process."""

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def add(self, url: str) -> bool:
        """True if ``url`` was new."""
        key = canonicalize(url)
        if key in self._seen:
            return False
        self._seen.add(key)
        return True

    def __contains__(self, url: str) -> bool:
        return canonicalize(url) in self._seen

    def __len__(self) -> int:
        return len(self._seen)
