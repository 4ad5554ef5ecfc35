"""Password reset: a one-time token mailed to the user."""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

TOKEN_TTL = 15 * 60


@dataclass
class ResetRequest:
    user_id: int
    token_hash: str
    expires: float
    used: bool = False


class UnknownEmail(Exception):
    pass


class ResetService:
    def __init__(self, users, mailer, clock=time.time, base_url: str = "https://portal.example.com"):
        self.users = users
        self.mailer = mailer
        self.clock = clock
        self.base_url = base_url
        self._requests: dict[str, ResetRequest] = {}

    def request_reset(self, email: str) -> None:
        user = self.users.by_email(email.strip().lower())
        if user is None:
            raise UnknownEmail(email)
        token = secrets.token_urlsafe(32)
        digest = hashlib.sha256(token.encode()).hexdigest()
        self._requests[digest] = ResetRequest(user.id, digest, self.clock() + TOKEN_TTL)
        link = f"{self.base_url}/reset?token={token}"
        self.mailer.send(user.email, "Reset your password", f"Use this link to choose a new password:\n{link}\n")

    def consume(self, token: str) -> int | None:
        digest = hashlib.sha256(token.encode()).hexdigest()
        req = self._requests.get(digest)
        if req is None or req.used or self.clock() > req.expires:
            return None
        req.used = True
        return req.user_id
