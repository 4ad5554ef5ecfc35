"""The login flow: password, optional second factor, session."""

from __future__ import annotations

from dataclasses import dataclass

from . import passwords, totp
from .audit import AuditLog
from .ratelimit import LoginLimiter
from .sessions import SessionStore

# verify_password against this when the user does not exist (see LoginService.login)
_DUMMY_HASH = passwords.hash_password("not-a-real-password")


@dataclass
class LoginResult:
    ok: bool
    token: str | None = None
    needs_totp: bool = False
    reason: str = ""


class LoginService:
    def __init__(self, users, sessions: SessionStore, limiter: LoginLimiter, audit: AuditLog):
        self.users = users
        self.sessions = sessions
        self.limiter = limiter
        self.audit = audit

    def login(self, email: str, password: str, ip: str, totp_code: str | None = None) -> LoginResult:
        if not self.limiter.allowed(ip):
            self.audit.record("login.throttled", ip=ip)
            return LoginResult(False, reason="throttled")
        user = self.users.by_email(email.strip().lower())
        if user is None:
            passwords.verify_password(password, _DUMMY_HASH)
            self.limiter.record_failure(ip)
            self.audit.record("login.failed", ip=ip, email=email)
            return LoginResult(False, reason="invalid")
        if not passwords.verify_password(password, user.password_hash):
            self.limiter.record_failure(ip)
            self.audit.record("login.failed", user_id=user.id, ip=ip)
            return LoginResult(False, reason="invalid")
        if user.totp_secret:
            if totp_code is None:
                return LoginResult(False, needs_totp=True)
            if not totp.verify(user.totp_secret, totp_code):
                self.limiter.record_failure(ip)
                self.audit.record("login.totp_failed", user_id=user.id, ip=ip)
                return LoginResult(False, reason="invalid")
        self.limiter.record_success(ip)
        if passwords.needs_rehash(user.password_hash):
            self.users.set_password_hash(user.id, passwords.hash_password(password))
        token = self.sessions.issue(user.id)
        self.audit.record("login.ok", user_id=user.id, ip=ip)
        return LoginResult(True, token=token)

    def logout(self, token: str) -> None:
        session = self.sessions.validate(token)
        self.sessions.revoke(token)
        if session is not None:
            self.audit.record("logout", user_id=session.user_id)
