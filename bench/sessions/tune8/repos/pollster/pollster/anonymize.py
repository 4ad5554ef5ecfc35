"""Respondent anonymization: pseudonymous ids and stripping of identifying fields."""

from __future__ import annotations

import hashlib
from typing import Any

PII_FIELDS = ("email", "name", "phone", "ip", "user_agent")


def pseudonymize(email: str) -> str:
    """A stable respondent id for an email address, so repeat submissions can be detected."""
    normalized = email.strip().lower()
    return hashlib.sha256(normalized.encode("utf-8")).hexdigest()[:16]


def strip_pii(meta: dict[str, Any]) -> dict[str, Any]:
    """The submission metadata without the fields that identify a person."""
    return {k: v for k, v in meta.items() if k not in PII_FIELDS}


def anonymize_submission(email: str, meta: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return pseudonymize(email), strip_pii(meta)


def coarsen_timestamp(iso: str) -> str:
    """Submission times are kept to the hour: '2025-03-04T10:17:55Z' -> '2025-03-04T10:00:00Z'."""
    date, _, time = iso.partition("T")
    hour = time[:2] if time else "00"
    return f"{date}T{hour}:00:00Z"
