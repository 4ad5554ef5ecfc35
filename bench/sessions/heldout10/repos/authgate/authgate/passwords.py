"""Password hashing.

Hashes are stored as a single string: ``<scheme>$<params>$<salt>$<digest>`` so that the scheme
can change without a column migration.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os

SCHEME = "pbkdf2"
ITERATIONS = 200_000
SALT_BYTES = 16


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4))


def hash_password(password: str) -> str:
    salt = os.urandom(SALT_BYTES)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, ITERATIONS)
    return f"{SCHEME}${ITERATIONS}${_b64(salt)}${_b64(digest)}"


def verify_password(password: str, stored: str) -> bool:
    try:
        scheme, params, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != SCHEME:
        return False
    candidate = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), _unb64(salt), int(params))
    return hmac.compare_digest(candidate, _unb64(digest))


def needs_rehash(stored: str) -> bool:
    """True when the stored hash uses an older scheme or weaker parameters."""
    scheme, _, rest = stored.partition("$")
    if scheme != SCHEME:
        return True
    params = rest.split("$", 1)[0]
    return int(params) < ITERATIONS
