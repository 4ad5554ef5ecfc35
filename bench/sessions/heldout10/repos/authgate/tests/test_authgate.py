from dataclasses import dataclass

from authgate import passwords, totp
from authgate.audit import AuditLog
from authgate.login import LoginService
from authgate.ratelimit import LoginLimiter
from authgate.reset import ResetService
from authgate.sessions import SessionStore

SECRET = "JBSWY3DPEHPK3PXP"


@dataclass
class User:
    id: int
    email: str
    password_hash: str
    totp_secret: str | None = None


class Users:
    def __init__(self, *users):
        self.rows = {u.email: u for u in users}

    def by_email(self, email):
        return self.rows.get(email)

    def set_password_hash(self, user_id, value):
        for u in self.rows.values():
            if u.id == user_id:
                u.password_hash = value


class Clock:
    def __init__(self, t=1_700_000_000.0):
        self.t = t

    def __call__(self):
        return self.t


class Mailer:
    def __init__(self):
        self.sent = []

    def send(self, to, subject, body):
        self.sent.append((to, subject, body))


def make_service(clock=None, **user_kw):
    clock = clock or Clock()
    user = User(1, "ana@example.com", passwords.hash_password("hunter22"), **user_kw)
    users = Users(user)
    svc = LoginService(users, SessionStore(clock), LoginLimiter(clock), AuditLog(clock=clock))
    return svc, users, clock


def test_hash_roundtrip():
    h = passwords.hash_password("correct horse")
    assert passwords.verify_password("correct horse", h)
    assert not passwords.verify_password("wrong horse", h)


def test_hash_is_salted():
    assert passwords.hash_password("x") != passwords.hash_password("x")


def test_session_expires_when_idle():
    clock = Clock()
    store = SessionStore(clock)
    token = store.issue(7)
    clock.t += 31 * 60
    assert store.validate(token) is None


def test_session_revoke_user():
    store = SessionStore(Clock())
    store.issue(1)
    store.issue(1)
    store.issue(2)
    assert store.revoke_user(1) == 2


def test_login_ok_and_audited():
    svc, _, _ = make_service()
    result = svc.login("ana@example.com", "hunter22", "10.0.0.1")
    assert result.ok and result.token
    assert svc.audit.count("login.ok") == 1


def test_login_throttled_after_failures():
    svc, _, _ = make_service()
    for _ in range(5):
        svc.login("ana@example.com", "nope", "10.0.0.1")
    assert svc.login("ana@example.com", "hunter22", "10.0.0.1").reason == "throttled"


def test_totp_known_vector():
    assert totp.code_at(SECRET, 0) == "282760"


def test_totp_accepts_previous_step():
    now = 1_700_000_000.0
    assert totp.verify(SECRET, totp.current_code(SECRET, now - 30), now)


def test_login_needs_totp():
    svc, _, _ = make_service(totp_secret=SECRET)
    assert svc.login("ana@example.com", "hunter22", "10.0.0.1").needs_totp


def test_reset_token_single_use():
    clock = Clock()
    mailer = Mailer()
    users = Users(User(1, "ana@example.com", "x"))
    svc = ResetService(users, mailer, clock)
    svc.request_reset("ana@example.com")
    token = mailer.sent[0][2].split("token=")[1].strip()
    assert svc.consume(token) == 1
    assert svc.consume(token) is None
