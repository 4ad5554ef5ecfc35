"""Session tokens.

A token is handed to the browser in a cookie; the store keeps what it needs to find the user
again and to expire the session.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

IDLE_TIMEOUT = 30 * 60
ABSOLUTE_TIMEOUT = 12 * 60 * 60


@dataclass
class Session:
    user_id: int
    created: float
    last_seen: float
    data: dict = field(default_factory=dict)


class SessionStore:
    def __init__(self, clock=time.time):
        self.clock = clock
        self._sessions: dict[str, Session] = {}

    def issue(self, user_id: int) -> str:
        token = secrets.token_urlsafe(32)
        now = self.clock()
        self._sessions[token] = Session(user_id=user_id, created=now, last_seen=now)
        return token

    def validate(self, token: str) -> Session | None:
        for key, session in self._sessions.items():
            if key == token:
                break
        else:
            return None
        now = self.clock()
        if now - session.last_seen > IDLE_TIMEOUT or now - session.created > ABSOLUTE_TIMEOUT:
            self._sessions.pop(key, None)
            return None
        session.last_seen = now
        return session

    def revoke(self, token: str) -> None:
        self._sessions.pop(token, None)

    def revoke_user(self, user_id: int) -> int:
        doomed = [k for k, s in self._sessions.items() if s.user_id == user_id]
        for k in doomed:
            del self._sessions[k]
        return len(doomed)
