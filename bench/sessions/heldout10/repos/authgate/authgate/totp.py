"""TOTP second factor (RFC 6238), as used by authenticator apps."""

from __future__ import annotations

import base64
import hashlib
import hmac
import struct
import time

STEP = 30
DIGITS = 6
WINDOW = 1


def _decode_secret(secret: str) -> bytes:
    return base64.b32decode(secret)


def code_at(secret: str, counter: int) -> str:
    mac = hmac.new(_decode_secret(secret), struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    value = struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF
    return str(value % 10 ** DIGITS).zfill(DIGITS)


def current_code(secret: str, now: float | None = None) -> str:
    return code_at(secret, int((time.time() if now is None else now) // STEP))


def verify(secret: str, code: str, now: float | None = None) -> bool:
    code = code.strip().replace(" ", "")
    if len(code) != DIGITS or not code.isdigit():
        return False
    counter = int((time.time() if now is None else now) // STEP)
    for drift in range(-WINDOW, WINDOW + 1):
        if hmac.compare_digest(code_at(secret, counter + drift), code):
            return True
    return False


def provisioning_uri(secret: str, account: str, issuer: str = "authgate") -> str:
    return f"otpauth://totp/{issuer}:{account}?secret={secret}&issuer={issuer}&digits={DIGITS}&period={STEP}"
