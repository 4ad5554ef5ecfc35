"""Encryption wrapper for chunks: AES-256-GCM with a key derived from a passphrase."""

from __future__ import annotations

import hashlib
import os

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

MAGIC = b"SV1"
SALT_FILE = "salt"


class DecryptionError(Exception):
    pass


def derive_key(passphrase: str, salt: bytes) -> bytes:
    return hashlib.scrypt(passphrase.encode("utf-8"), salt=salt, n=2**15, r=8, p=1, maxmem=64 * 1024 * 1024, dklen=32)


def load_or_create_salt(repo_root) -> bytes:
    path = repo_root / SALT_FILE
    if path.exists():
        return path.read_bytes()
    salt = os.urandom(16)
    path.write_bytes(salt)
    return salt


class Encryptor:
    def __init__(self, key: bytes):
        if len(key) != 32:
            raise ValueError("key must be 32 bytes")
        self._aead = AESGCM(key)
        self._counter = 0

    def _nonce(self) -> bytes:
        self._counter += 1
        return self._counter.to_bytes(12, "big")

    def seal(self, data: bytes) -> bytes:
        nonce = self._nonce()
        return MAGIC + nonce + self._aead.encrypt(nonce, data, MAGIC)

    def open(self, payload: bytes) -> bytes:
        if not payload.startswith(MAGIC):
            raise DecryptionError("not a snapvault chunk")
        nonce, body = payload[3:15], payload[15:]
        try:
            return self._aead.decrypt(nonce, body, MAGIC)
        except Exception as exc:  # InvalidTag
            raise DecryptionError("wrong passphrase or corrupted chunk") from exc
