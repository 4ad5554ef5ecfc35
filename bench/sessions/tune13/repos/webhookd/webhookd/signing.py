"""Signatures customers verify on every delivery."""

from __future__ import annotations

import hashlib
import hmac

SIGNATURE_HEADER = "X-Webhookd-Signature"


def sign_payload(secret: str, body: bytes) -> str:
    mac = hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()
    return f"sha256={mac}"


def verify(secret: str, body: bytes, header: str) -> bool:
    """What our SDKs do on the receiving side; used by the tests and the CLI's ``verify`` command."""
    expected = sign_payload(secret, body)
    return hmac.compare_digest(expected, header.strip())


def build_headers(secret: str, event_id: str, event_type: str, body: bytes, user_agent: str) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "User-Agent": user_agent,
        "X-Webhookd-Event": event_type,
        "X-Webhookd-Event-Id": event_id,
        SIGNATURE_HEADER: sign_payload(secret, body),
    }


def redact(headers: dict[str, str]) -> dict[str, str]:
    """Headers as we log them: signatures cut short, so a log line can't be used to forge a delivery."""
    out = {}
    for name, value in headers.items():
        out[name] = value[:14] + "…" if name.startswith(SIGNATURE_HEADER) else value
    return out
