"""Writes the heldout10 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``authgate`` (Python, a login/session service) and
``formsync`` (TypeScript, offline-first form drafts with sync). Sessions are written with the
``Session`` builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after
changing a scenario (outputs are committed). ``python3 build.py --check`` also replays every
scenario on a copy of its repository (every edit must apply) and checks, with tether's own
parser, that every expected anchor names a definition of the final state.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
TESTS = HERE.parents[2] / "tests"
sys.path.insert(0, str(TESTS / "fixtures" / "transcripts"))
from build import Session  # noqa: E402

SET = "heldout10"
SCENARIOS: list[dict] = []


def repo_files(repo: str) -> dict[str, str]:
    base = HERE / "repos" / repo
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*")) if p.is_file()}


def scenario(name: str, repo: str, note: str, expected: list[dict]):
    def register(fn):
        SCENARIOS.append({"name": name, "repo": repo, "note": note, "expected": expected, "fn": fn})
        return fn
    return register


def exp(kind: str, anchor: str, phrase: str, rejected: list[str] | None = None) -> dict:
    return {"kind": kind, "anchor": anchor, "phrase": phrase, "rejected": rejected or []}


def pytest_ok(n: int, secs: str = "1.84") -> str:
    dots = "." * n
    return (f"============================= test session starts ==============================\n"
            f"platform linux -- Python 3.11.7, pytest-8.3.3, pluggy-1.5.0\n"
            f"rootdir: /home/dev/authgate\nconfigfile: pyproject.toml\ncollected {n} items\n\n"
            f"tests/test_authgate.py {dots:<50} [100%]\n\n"
            f"============================== {n} passed in {secs}s ===============================")


def vitest_ok(n: int, ms: int = 412) -> str:
    return (f" RUN  v2.1.4 /home/dev/formsync\n\n ✓ test/formsync.test.ts ({n} tests) {ms // 3}ms\n\n"
            f" Test Files  1 passed (1)\n      Tests  {n} passed ({n})\n   Start at  10:42:17\n"
            f"   Duration  {ms}ms (transform 61ms, setup 0ms, collect 88ms, tests {ms // 3}ms, environment 0ms, "
            f"prepare 71ms)\n")


# -- authgate (Python) ------------------------------------------------------------------------------------

AG = "authgate"


@scenario("hash-scheme", AG, "agent proposes three hashing schemes as a numbered list with trade-offs; the person "
          "answers '2 —' with a one-line reason; agent implements and keeps old hashes verifying",
          [exp("decision", "authgate/passwords.py:hash_password", "scrypt", ["argon2id", "bcrypt"])])
def _hash(files):
    s = Session("hash-scheme", "2025-03-03T09:12:00Z", files)
    s.user("pbkdf2 at 200k is what the pentest report flagged as 'weak-ish'. what should we move to?")
    s.read("authgate/passwords.py")
    s.grep("needs_rehash|hash_password", ["authgate/passwords.py", "authgate/login.py", "tests/test_authgate.py"])
    s.say("The format is already `<scheme>$<params>$<salt>$<digest>` and `login.py` rehashes on successful login "
          "when `needs_rehash()` says so, so switching is cheap: new hashes get the new scheme, old ones upgrade "
          "as people log in.\n\nThree realistic targets:\n\n"
          "1. **argon2id** via `argon2-cffi` — the current OWASP first choice, memory-hard. Adds a compiled "
          "dependency (wheels exist for most platforms, but it's a C extension).\n"
          "2. **scrypt** via `hashlib.scrypt` — memory-hard too, in the standard library (needs OpenSSL 1.1+, "
          "which every supported Python has). No new dependency.\n"
          "3. **bcrypt** via the `bcrypt` package — widely deployed, but silently truncates passwords at 72 bytes "
          "and isn't memory-hard; also a compiled dependency.\n\n"
          "I'd lean 1 or 2. Which one?")
    s.user("2 — the deploy image has no compiler and I don't want a wheel dependency in the auth service for this")
    s.edit("authgate/passwords.py",
           'SCHEME = "pbkdf2"\nITERATIONS = 200_000\nSALT_BYTES = 16\n',
           'SCHEME = "scrypt"\n# scrypt cost: n=2**15, r=8, p=1 -> 32 MiB per hash\nSCRYPT_N = 2 ** 15\nSCRYPT_R = 8\n'
           'SCRYPT_P = 1\nSCRYPT_MAXMEM = 64 * 1024 * 1024\nSALT_BYTES = 16\n\n'
           '# legacy scheme, still verified so existing hashes keep working until rehashed on login\n'
           'PBKDF2_ITERATIONS = 200_000\n')
    s.edit("authgate/passwords.py",
           'def hash_password(password: str) -> str:\n    salt = os.urandom(SALT_BYTES)\n'
           '    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, ITERATIONS)\n'
           '    return f"{SCHEME}${ITERATIONS}${_b64(salt)}${_b64(digest)}"\n',
           'def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:\n'
           '    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=SCRYPT_MAXMEM, dklen=32)\n\n\n'
           'def hash_password(password: str) -> str:\n    salt = os.urandom(SALT_BYTES)\n'
           '    digest = _scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)\n'
           '    return f"{SCHEME}${SCRYPT_N},{SCRYPT_R},{SCRYPT_P}${_b64(salt)}${_b64(digest)}"\n')
    s.edit("authgate/passwords.py",
           '    if scheme != SCHEME:\n        return False\n'
           '    candidate = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), _unb64(salt), int(params))\n',
           '    if scheme == "scrypt":\n        n, r, p = (int(x) for x in params.split(","))\n'
           '        candidate = _scrypt(password, _unb64(salt), n, r, p)\n    elif scheme == "pbkdf2":\n'
           '        candidate = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), _unb64(salt), int(params))\n'
           '    else:\n        return False\n')
    s.edit("authgate/passwords.py",
           '    params = rest.split("$", 1)[0]\n    return int(params) < ITERATIONS\n',
           '    n, r, p = (int(x) for x in rest.split("$", 1)[0].split(","))\n'
           '    return (n, r, p) < (SCRYPT_N, SCRYPT_R, SCRYPT_P)\n')
    s.edit("tests/test_authgate.py",
           'def test_hash_is_salted():\n',
           'def test_legacy_pbkdf2_still_verifies_and_needs_rehash():\n'
           '    import base64, hashlib\n    salt = b"0123456789abcdef"\n'
           '    digest = hashlib.pbkdf2_hmac("sha256", b"old pass", salt, 200_000)\n'
           '    b64 = lambda raw: base64.b64encode(raw).decode().rstrip("=")\n'
           '    legacy = f"pbkdf2$200000${b64(salt)}${b64(digest)}"\n'
           '    assert passwords.verify_password("old pass", legacy)\n    assert passwords.needs_rehash(legacy)\n'
           '    assert not passwords.needs_rehash(passwords.hash_password("new pass"))\n\n\n'
           'def test_hash_is_salted():\n')
    s.bash("python -m pytest -q", pytest_ok(11, "2.96"))
    s.say("Done. New hashes are `scrypt$32768,8,1$<salt>$<digest>` (32 MiB, ~60 ms here). `verify_password` "
          "still accepts `pbkdf2$…`, and `needs_rehash` flags them, so the existing rehash-on-login in "
          "`LoginService.login` migrates users as they sign in. No new dependency. 11 passed.")
    return [s]


@scenario("session-findings", AG, "a security auditor's formal findings (numbered, severities, MUST); two are to be "
          "fixed, one is informational, one is tracked elsewhere; a terse agent acts and reports",
          [exp("invariant", "authgate/sessions.py:SessionStore.validate", "constant time"),
           exp("invariant", "authgate/sessions.py:SessionStore.issue", "sha-256 digest")])
def _findings(files):
    s = Session("session-findings", "2025-03-11T14:02:00Z", files)
    s.user("Security review — authgate 0.4.0, module `authgate/sessions.py`. Reviewer: M. Lindqvist.\n\n"
           "Please remediate AG-2 and AG-3 in this change.\n\n"
           "AG-1 (Informational). IDLE_TIMEOUT = 30 min and ABSOLUTE_TIMEOUT = 12 h are within the customer's "
           "policy. No action.\n\n"
           "AG-2 (High). `SessionStore.validate` locates the presented token by iterating the store and comparing "
           "with `==`. String equality returns at the first differing byte; response time therefore depends on "
           "the length of the matching prefix. Requirement: comparison of presented tokens against stored values "
           "MUST be constant time.\n\n"
           "AG-3 (Medium). Raw session tokens are retained as dictionary keys. A heap dump, a debug endpoint or the "
           "planned Redis backend would disclose live sessions. Requirement: the store MUST NOT retain the raw "
           "token; it retains only the SHA-256 digest of the token, and lookups are performed by digest.\n\n"
           "AG-4 (Low). No session identifier rotation on privilege change. Tracked as AUTH-212, outside the "
           "scope of this change.\n\n"
           "Please reference finding IDs in the commit message.")
    s.read("authgate/sessions.py")
    s.edit("authgate/sessions.py", "import secrets\nimport time\n",
           "import hashlib\nimport hmac\nimport secrets\nimport time\n")
    s.edit("authgate/sessions.py",
           "    data: dict = field(default_factory=dict)\n",
           "    data: dict = field(default_factory=dict)\n    digest: str = \"\"\n\n\n"
           "def _digest(token: str) -> str:\n    return hashlib.sha256(token.encode(\"utf-8\")).hexdigest()\n")
    s.edit("authgate/sessions.py",
           "        token = secrets.token_urlsafe(32)\n        now = self.clock()\n"
           "        self._sessions[token] = Session(user_id=user_id, created=now, last_seen=now)\n        return token\n",
           "        token = secrets.token_urlsafe(32)\n        now = self.clock()\n        digest = _digest(token)\n"
           "        # AG-3: only the digest is kept; the raw token exists only in the caller's cookie\n"
           "        self._sessions[digest] = Session(user_id=user_id, created=now, last_seen=now, digest=digest)\n"
           "        return token\n")
    s.edit("authgate/sessions.py",
           "        for key, session in self._sessions.items():\n            if key == token:\n                break\n"
           "        else:\n            return None\n",
           "        key = _digest(token)\n        session = self._sessions.get(key)\n"
           "        # AG-2: explicit constant-time comparison of the digests\n"
           "        if session is None or not hmac.compare_digest(session.digest, key):\n            return None\n")
    s.edit("authgate/sessions.py",
           "    def revoke(self, token: str) -> None:\n        self._sessions.pop(token, None)\n",
           "    def revoke(self, token: str) -> None:\n        self._sessions.pop(_digest(token), None)\n")
    s.edit("tests/test_authgate.py",
           "def test_session_revoke_user():\n",
           "def test_session_store_keeps_no_raw_token():\n    store = SessionStore(Clock())\n"
           "    token = store.issue(3)\n    assert token not in store._sessions\n"
           "    assert store.validate(token).user_id == 3\n    assert store.validate(token[:-1] + \"x\") is None\n\n\n"
           "def test_session_revoke_user():\n")
    s.bash("python -m pytest -q", pytest_ok(11, "1.91"))
    s.say("AG-2, AG-3 fixed in `sessions.py`:\n- store keyed by SHA-256 digest of the token; raw token never stored\n"
          "- `validate` hashes the presented token, looks up by digest, then `hmac.compare_digest`\n"
          "- `revoke` hashes too; `revoke_user` unchanged\n\nAG-1, AG-4 untouched. 11 passed.\n\n"
          "Commit message suggestion: `sessions: store token digests, constant-time compare (AG-2, AG-3)`")
    s.user("Acknowledged. Verified against the requirement text; AG-2 and AG-3 can be closed.")
    return [s]


@scenario("ratelimit-key", AG, "a maintainer thinks aloud over four messages (account only? the pair? spraying?) "
          "before deciding; the last message also puts captcha out of the service's scope",
          [exp("decision", "authgate/ratelimit.py:LoginLimiter.allowed", "account, ip", ["account only", "known ranges"]),
           exp("boundary", "authgate/ratelimit.py:LoginLimiter", "captcha")])
def _ratelimit(files):
    s = Session("ratelimit-key", "2025-03-14T16:40:00Z", files)
    s.user("the limiter keys on IP only. been getting complaints from the hospital group — the whole staff sits "
           "behind one NAT, one nurse fat-fingers her password five times and the entire ward is locked out of "
           "the portal for 15 min. need to change what we key on. thinking, dont change anything yet")
    s.read("authgate/ratelimit.py")
    s.read("authgate/login.py", offset=30, limit=20)
    s.say("Right — `LoginLimiter` counts failures per IP, and `LoginService.login` checks it before even looking "
          "up the user, so one office shares one budget of 5 per 15 minutes.\n\nWhat I can see as options:\n"
          "- key on the account (email) only\n"
          "- key on the (account, ip) pair\n"
          "- keep the IP key but raise the limit for known ranges (the hospital's egress IPs in config)\n\n"
          "Take your time, I'll wait.")
    s.user("account only is tempting. but then anyone can lock out any account by typing wrong passwords against it "
           "from anywhere. thats a DoS on our CEO's login in one curl loop", seconds=70)
    s.user("known ranges = we maintain an allowlist of customer IPs forever. no.", seconds=45)
    s.user("ok the pair. attacker from one ip against one account gets 5 tries/15min, good. attacker spraying one "
           "password across 10k accounts from one ip... each pair gets 5, so the pair alone doesnt stop that. "
           "hmm", seconds=90)
    s.user("fine, decided: the (account, ip) pair for the 5-per-15min thing, plus a looser ceiling per ip "
           "regardless of account, say 50 failures / 15 min, for the spraying case. success clears only that "
           "pair. and captcha is not our business — the frontend team owns it, don't put any captcha hooks in "
           "authgate.", seconds=60)
    s.say("Got it. Implementing: pair limit 5, per-IP ceiling 50, both over the same 15-minute window.")
    s.edit("authgate/ratelimit.py", "WINDOW = 15 * 60\nMAX_FAILURES = 5\n",
           "WINDOW = 15 * 60\nMAX_FAILURES = 5          # per (account, ip) pair\nMAX_FAILURES_PER_IP = 50  "
           "# per ip, any account: password spraying\n")
    s.edit("authgate/ratelimit.py",
           "    def __init__(self, clock=time.time, window: float = WINDOW, max_failures: int = MAX_FAILURES):\n"
           "        self.clock = clock\n        self.window = window\n        self.max_failures = max_failures\n",
           "    \"\"\"Failed logins are limited per (account, ip) pair, so one office behind a NAT does not share a\n"
           "    budget, plus a looser ceiling per ip for spraying across accounts.\"\"\"\n\n"
           "    def __init__(self, clock=time.time, window: float = WINDOW, max_failures: int = MAX_FAILURES,\n"
           "                 max_failures_per_ip: int = MAX_FAILURES_PER_IP):\n"
           "        self.clock = clock\n        self.window = window\n        self.max_failures = max_failures\n"
           "        self.max_failures_per_ip = max_failures_per_ip\n")
    s.edit("authgate/ratelimit.py",
           "    def allowed(self, ip: str) -> bool:\n        return len(self._prune(ip)) < self.max_failures\n\n"
           "    def record_failure(self, ip: str) -> None:\n        self._prune(ip).append(self.clock())\n\n"
           "    def record_success(self, ip: str) -> None:\n        self._failures.pop(ip, None)\n",
           "    @staticmethod\n    def _pair(account: str, ip: str) -> str:\n        return f\"{account.lower()}|{ip}\"\n\n"
           "    def allowed(self, account: str, ip: str) -> bool:\n"
           "        if len(self._prune(\"ip|\" + ip)) >= self.max_failures_per_ip:\n            return False\n"
           "        return len(self._prune(self._pair(account, ip))) < self.max_failures\n\n"
           "    def record_failure(self, account: str, ip: str) -> None:\n"
           "        now = self.clock()\n        self._prune(self._pair(account, ip)).append(now)\n"
           "        self._prune(\"ip|\" + ip).append(now)\n\n"
           "    def record_success(self, account: str, ip: str) -> None:\n"
           "        self._failures.pop(self._pair(account, ip), None)\n")
    s.edit("authgate/login.py",
           "        if not self.limiter.allowed(ip):\n",
           "        if not self.limiter.allowed(email, ip):\n")
    s.edit("authgate/login.py",
           "            passwords.verify_password(password, _DUMMY_HASH)\n            self.limiter.record_failure(ip)\n",
           "            passwords.verify_password(password, _DUMMY_HASH)\n            self.limiter.record_failure(email, ip)\n")
    s.edit("authgate/login.py",
           "        if not passwords.verify_password(password, user.password_hash):\n"
           "            self.limiter.record_failure(ip)\n",
           "        if not passwords.verify_password(password, user.password_hash):\n"
           "            self.limiter.record_failure(email, ip)\n")
    s.edit("authgate/login.py",
           "            if not totp.verify(user.totp_secret, totp_code):\n                self.limiter.record_failure(ip)\n",
           "            if not totp.verify(user.totp_secret, totp_code):\n"
           "                self.limiter.record_failure(email, ip)\n")
    s.edit("authgate/login.py", "        self.limiter.record_success(ip)\n",
           "        self.limiter.record_success(email, ip)\n")
    s.edit("tests/test_authgate.py",
           "def test_totp_known_vector():\n",
           "def test_one_nurse_does_not_lock_out_the_ward():\n    svc, users, _ = make_service()\n"
           "    users.rows[\"bo@example.com\"] = User(2, \"bo@example.com\", passwords.hash_password(\"pw2\"))\n"
           "    for _ in range(5):\n        svc.login(\"ana@example.com\", \"nope\", \"10.0.0.1\")\n"
           "    assert svc.login(\"bo@example.com\", \"pw2\", \"10.0.0.1\").ok\n\n\n"
           "def test_spraying_hits_the_ip_ceiling():\n    svc, _, _ = make_service()\n"
           "    for i in range(50):\n        svc.login(f\"u{i}@example.com\", \"Winter2025!\", \"10.0.0.9\")\n"
           "    assert svc.login(\"ana@example.com\", \"hunter22\", \"10.0.0.9\").reason == \"throttled\"\n\n\n"
           "def test_totp_known_vector():\n")
    s.bash("python -m pytest -q", pytest_ok(12, "5.20"))
    s.say("Done — `LoginLimiter.allowed/record_failure/record_success` now take `(account, ip)`; the pair gets 5 "
          "failures per 15 min, each IP 50 across all accounts. `login.py` passes the email through. Two new tests "
          "(the ward case, a 50-account spray). Nothing captcha-related added. 12 passed.\n\n"
          "Note: the spray test is slow-ish (50 dummy-hash verifications), 5 s total now.")
    return [s]


@scenario("totp-padding", AG, "lowercase person with typos pastes a traceback; the agent reproduces it, finds the "
          "cause (unpadded, lower-case, grouped secrets from the new Android enrolment) and fixes the decoding",
          [exp("gotcha", "authgate/totp.py:_decode_secret", "padding")])
def _totp(files):
    s = Session("totp-padding", "2025-03-19T08:05:00Z", files)
    s.user("ppl who enrolled 2fa thru the new android app get a 500 on login after the password step. only them, "
           "the web enrolment ones are fine. from sentry:\n\n```\nTraceback (most recent call last):\n"
           "  File \"/srv/portal/api/auth.py\", line 88, in post_login\n"
           "    result = svc.login(body.email, body.password, ip, body.totp)\n"
           "  File \"/srv/portal/.venv/lib/python3.11/site-packages/authgate/login.py\", line 48, in login\n"
           "    if not totp.verify(user.totp_secret, totp_code):\n"
           "  File \"/srv/portal/.venv/lib/python3.11/site-packages/authgate/totp.py\", line 37, in verify\n"
           "    if hmac.compare_digest(code_at(secret, counter + drift), code):\n"
           "  File \"/srv/portal/.venv/lib/python3.11/site-packages/authgate/totp.py\", line 21, in code_at\n"
           "    mac = hmac.new(_decode_secret(secret), struct.pack(\">Q\", counter), hashlib.sha1).digest()\n"
           "  File \"/srv/portal/.venv/lib/python3.11/site-packages/authgate/totp.py\", line 17, in _decode_secret\n"
           "    return base64.b32decode(secret)\n"
           "  File \"/usr/lib/python3.11/base64.py\", line 253, in b32decode\n"
           "    return _b32decode(_b32alphabet, s, casefold, map01)\n"
           "  File \"/usr/lib/python3.11/base64.py\", line 226, in _b32decode\n"
           "    raise binascii.Error('Incorrect padding')\nbinascii.Error: Incorrect padding\n```\n\n"
           "one of the secrets from the db (test acount): `jbsw y3dp ehpk 3pxp jbsw y3dp eh`")
    s.read("authgate/totp.py")
    s.bash("python -c \"from authgate import totp; print(totp.current_code('jbsw y3dp ehpk 3pxp jbsw y3dp eh'))\"",
           "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
           "  File \"/home/dev/authgate/authgate/totp.py\", line 28, in current_code\n"
           "    return code_at(secret, int((time.time() if now is None else now) // STEP))\n"
           "  File \"/home/dev/authgate/authgate/totp.py\", line 21, in code_at\n"
           "    mac = hmac.new(_decode_secret(secret), struct.pack(\">Q\", counter), hashlib.sha1).digest()\n"
           "  File \"/home/dev/authgate/authgate/totp.py\", line 17, in _decode_secret\n"
           "    return base64.b32decode(secret)\n"
           "binascii.Error: Incorrect padding", fail=True)
    s.bash("python -c \"import base64; print(base64.b32decode('JBSWY3DPEHPK3PXPJBSWY3DPEH======'))\"",
           "b'Hello!\\xde\\xad\\xbe\\xefHello!'")
    s.say("Reproduced. Three things about the Android app's secrets trip `base64.b32decode`, which is strict:\n\n"
          "1. **No padding.** The secret is 26 base32 characters; b32decode wants a multiple of 8, i.e. six `=` "
          "at the end. Authenticator apps (and the otpauth URI spec) drop padding, so anything that isn't 16 or "
          "32 characters long fails with `Incorrect padding` — that's your traceback.\n"
          "2. **Lower case.** Without `casefold=True` it raises `Non-base32 digit found` next.\n"
          "3. **Spaces** from the grouped display format.\n\n"
          "The web enrolment generates 16-character upper-case secrets, which is why those users never hit it. "
          "Fixing the decoding rather than the stored data, so both kinds of secret work.")
    s.edit("authgate/totp.py",
           "def _decode_secret(secret: str) -> bytes:\n    return base64.b32decode(secret)\n",
           "def _decode_secret(secret: str) -> bytes:\n"
           "    # Secrets from authenticator apps come lower-case, grouped with spaces and without the '='\n"
           "    # padding base64.b32decode insists on (padding is only implicit for 16/32-char secrets).\n"
           "    s = \"\".join(secret.split()).upper()\n    s += \"=\" * (-len(s) % 8)\n"
           "    return base64.b32decode(s)\n")
    s.edit("tests/test_authgate.py",
           "def test_login_needs_totp():\n",
           "def test_totp_unpadded_lowercase_grouped_secret():\n"
           "    messy = \"jbsw y3dp ehpk 3pxp jbsw y3dp eh\"\n"
           "    assert totp.code_at(messy, 7) == totp.code_at(\"JBSWY3DPEHPK3PXPJBSWY3DPEH======\", 7)\n\n\n"
           "def test_login_needs_totp():\n")
    s.bash("python -m pytest -q", pytest_ok(11, "1.79"))
    s.say("Fixed in `_decode_secret`: strip whitespace, upper-case, re-pad to a multiple of 8. New test with the "
          "secret from your test account; 11 passed. No data migration needed.")
    s.user("nice ty. shiping it")
    return [s]


@scenario("reset-questions", AG, "agent asks one question at a time; a product owner answers each with a customer "
          "anecdote, the agent turns each into a proposal and the owner agrees",
          [exp("decision", "authgate/reset.py:ResetService.request_reset", "same response",
               ["no account with that email"]),
           exp("decision", "authgate/reset.py:ResetService.request_reset", "one hour", ["15 minutes", "24 hours"])])
def _reset(files):
    s = Session("reset-questions", "2025-03-24T10:30:00Z", files)
    s.user("Hi! Support wants the password reset flow 'fixed'. I've collected what customers said, but I'm not "
           "technical, so ask me whatever you need.")
    s.read("authgate/reset.py")
    s.say("Thanks — I've read `authgate/reset.py`. I'll ask one thing at a time.\n\n"
          "**First question:** when someone asks for a reset with an email address that has no account, "
          "`request_reset` raises `UnknownEmail`, and the portal shows \"no account with that email\". "
          "Should it keep telling people that, or should it give the same response whether or not the account "
          "exists (and simply not send anything)?")
    s.user("Funny you ask. Last spring a physiotherapy clinic — one of our first customers — called us very upset. "
           "A woman had typed her ex-husband's email into their portal's reset page and the page told her there "
           "was no account, then she tried his work address and it said the link was sent. So she knew he was a "
           "patient there. The clinic got a formal complaint. Their manager still brings it up every time we "
           "meet.", seconds=95)
    s.say("That settles it: the reset request will look exactly the same to the person either way — same response, "
          "no hint whether the account exists. Unknown addresses just don't get a mail.\n\n"
          "**Second question:** the link in the email is valid for 15 minutes. Is that right for your customers?")
    s.user("Mr. Okafor — he runs three pharmacies for us, lovely man — told me last month that he asks for the reset "
           "on the shop computer, then walks to the back office where he left his phone, then has to find his "
           "reading glasses, and by then the link is dead. Three times in one week! Support says most people click "
           "within the first hour, and a handful only the next morning.", seconds=120)
    s.say("Then 15 minutes is too short. I'd rather not stretch it to 24 hours for the next-morning few: a reset "
          "link is as good as the password for as long as it lives, and inboxes get forwarded and synced to many "
          "devices. One hour covers almost everyone, including Mr. Okafor's walk. The link stays single-use "
          "either way. Shall I set it to one hour?")
    s.user("An hour is good. Mr. Okafor will be happy.")
    s.edit("authgate/reset.py", "TOKEN_TTL = 15 * 60\n", "TOKEN_TTL = 60 * 60  # one hour\n")
    s.edit("authgate/reset.py",
           "class UnknownEmail(Exception):\n    pass\n\n\n", "")
    s.edit("authgate/reset.py",
           "    def request_reset(self, email: str) -> None:\n"
           "        user = self.users.by_email(email.strip().lower())\n"
           "        if user is None:\n            raise UnknownEmail(email)\n",
           "    def request_reset(self, email: str) -> None:\n"
           "        \"\"\"Same response whether or not the account exists: an unknown address returns normally and\n"
           "        gets no mail, so the reset page cannot be used to find out who has an account.\"\"\"\n"
           "        user = self.users.by_email(email.strip().lower())\n"
           "        if user is None:\n            return\n")
    s.edit("tests/test_authgate.py",
           "def test_reset_token_single_use():\n",
           "def test_reset_unknown_email_is_silent():\n    mailer = Mailer()\n"
           "    svc = ResetService(Users(), mailer, Clock())\n    svc.request_reset(\"nobody@example.com\")\n"
           "    assert mailer.sent == []\n\n\n"
           "def test_reset_token_single_use():\n")
    s.grep("UnknownEmail", [])
    s.bash("python -m pytest -q", pytest_ok(11, "1.88"))
    s.say("Both changes are in:\n\n- Unknown email: `request_reset` returns normally and sends nothing, so the "
          "portal can show the same \"if an account exists, we've sent a link\" message every time. "
          "(`UnknownEmail` is gone; nothing else used it.)\n- Link lifetime: one hour, still single-use.\n\n"
          "Tests pass (11). The portal's wording on the reset page lives in the portal repo, not here — someone "
          "there will need to change the message text.")
    return [s]


@scenario("audit-write-once", AG, "rule stated as a correction (agent adds an UPDATE for a 'reviewed' flag), restated "
          "a week later in other words when the agent adds a DELETE for retention; one invariant, evidence in both",
          [exp("invariant", "authgate/audit.py:AuditLog", "write-once")])
def _audit(files):
    s = Session("audit-write-once-1", "2025-04-01T13:10:00Z", files)
    s.user("The admin console wants a 'reviewed' checkbox next to suspicious login events (failed totp, throttled). "
           "Add whatever authgate needs for that.")
    s.read("authgate/audit.py")
    s.edit("authgate/audit.py",
           "    detail TEXT NOT NULL DEFAULT '{}'\n)\n",
           "    detail TEXT NOT NULL DEFAULT '{}',\n    reviewed_by INTEGER\n)\n")
    s.edit("authgate/audit.py",
           "    def for_user(self, user_id: int, limit: int = 100) -> list[dict]:\n",
           "    def mark_reviewed(self, entry_id: int, reviewer_id: int) -> None:\n"
           "        self.db.execute(\"UPDATE audit SET reviewed_by = ? WHERE id = ?\", (reviewer_id, entry_id))\n"
           "        self.db.commit()\n\n"
           "    def for_user(self, user_id: int, limit: int = 100) -> list[dict]:\n")
    s.bash("python -m pytest -q", pytest_ok(10, "1.80"))
    s.say("Added a nullable `reviewed_by` column and `AuditLog.mark_reviewed(entry_id, reviewer_id)`. The console "
          "can call it when the box is ticked. Tests pass.")
    s.user("no — the audit table is write-once. no UPDATE, no DELETE on it, ever: the external auditors diff the "
           "monthly exports and a row that changed after the fact is a finding for us. record the review as its "
           "own entry instead (kind 'audit.reviewed', pointing at the entry id), and the console can join them.")
    s.edit("authgate/audit.py",
           "    detail TEXT NOT NULL DEFAULT '{}',\n    reviewed_by INTEGER\n)\n",
           "    detail TEXT NOT NULL DEFAULT '{}'\n)\n")
    s.edit("authgate/audit.py",
           "    def mark_reviewed(self, entry_id: int, reviewer_id: int) -> None:\n"
           "        self.db.execute(\"UPDATE audit SET reviewed_by = ? WHERE id = ?\", (reviewer_id, entry_id))\n"
           "        self.db.commit()\n",
           "    def record_review(self, entry_id: int, reviewer_id: int) -> int:\n"
           "        \"\"\"A review is a new entry pointing at the reviewed one; entries are never changed.\"\"\"\n"
           "        return self.record(\"audit.reviewed\", user_id=reviewer_id, entry=entry_id)\n\n"
           "    def reviewed_ids(self) -> set[int]:\n"
           "        rows = self.db.execute(\"SELECT detail FROM audit WHERE kind = 'audit.reviewed'\").fetchall()\n"
           "        return {json.loads(r[0])[\"entry\"] for r in rows}\n")
    s.edit("authgate/audit.py",
           "class AuditLog:\n",
           "class AuditLog:\n    \"\"\"Write-once: rows are only ever inserted (see record_review for how a 'change' is "
           "recorded).\"\"\"\n\n")
    s.edit("tests/test_authgate.py",
           "def test_totp_known_vector():\n",
           "def test_review_is_a_new_entry():\n    log = AuditLog(clock=Clock())\n"
           "    first = log.record(\"login.totp_failed\", user_id=1, ip=\"10.0.0.1\")\n"
           "    log.record_review(first, reviewer_id=99)\n"
           "    assert log.reviewed_ids() == {first}\n    assert log.count() == 2\n\n\n"
           "def test_totp_known_vector():\n")
    s.bash("python -m pytest -q", pytest_ok(11, "1.83"))
    s.say("Reworked: no column, no UPDATE. `record_review(entry_id, reviewer_id)` inserts an `audit.reviewed` entry "
          "with `entry=<id>` in its detail, and `reviewed_ids()` gives the console the set to tick. 11 passed.")

    s2 = Session("audit-write-once-2", "2025-04-08T09:45:00Z", files)
    s2.user("audit db on staging is 3.1GB. add retention pls — drop anything older than 400 days, we'll call it from "
            "the nightly job")
    s2.read("authgate/audit.py")
    s2.edit("authgate/audit.py",
            "    def count(self, kind: str | None = None) -> int:\n",
            "    def prune(self, older_than_days: int = 400) -> int:\n"
            "        cutoff = self.clock() - older_than_days * 86400\n"
            "        cur = self.db.execute(\"DELETE FROM audit WHERE at < ?\", (cutoff,))\n"
            "        self.db.commit()\n        return cur.rowcount\n\n"
            "    def count(self, kind: str | None = None) -> int:\n")
    s2.say("Added `AuditLog.prune(older_than_days=400)`, returns the number of rows deleted. Want a test for it?")
    s2.user("hm, wait, no. same thing as with the review flag last week: nothing in authgate removes or rewrites "
            "audit rows. retention happens outside this code — the DBA's archive job copies old partitions to cold "
            "storage and drops them there. take prune out. what would help that job: an index on `at`, it does a "
            "range scan every night")
    s2.edit("authgate/audit.py",
            "    def prune(self, older_than_days: int = 400) -> int:\n"
            "        cutoff = self.clock() - older_than_days * 86400\n"
            "        cur = self.db.execute(\"DELETE FROM audit WHERE at < ?\", (cutoff,))\n"
            "        self.db.commit()\n        return cur.rowcount\n\n", "")
    s2.edit("authgate/audit.py",
            "        self.db.execute(SCHEMA)\n",
            "        self.db.execute(SCHEMA)\n"
            "        self.db.execute(\"CREATE INDEX IF NOT EXISTS audit_at ON audit (at)\")\n")
    s2.bash("python -m pytest -q", pytest_ok(11, "1.86"))
    s2.say("`prune` is gone; audit stays insert-only. Added `audit_at` index on `at` (created with the table, "
           "`IF NOT EXISTS`, so existing databases get it on next start). 11 passed.")
    return [s, s2]


@scenario("dummy-hash", AG, "agent's refactor removes a discarded verify_password call as dead code; a verbose reply "
          "explains, among unrelated matters, that it is deliberate (timing-based account enumeration); it is put back",
          [exp("workaround", "authgate/login.py:LoginService.login", "dummy hash")])
def _dummy(files):
    s = Session("dummy-hash", "2025-04-10T15:20:00Z", files)
    s.user("login() is getting long. pull the failure bookkeeping (limiter + audit + result) into a helper so each "
           "branch is one line")
    s.read("authgate/login.py")
    s.edit("authgate/login.py",
           "# verify_password against this when the user does not exist (see LoginService.login)\n"
           "_DUMMY_HASH = passwords.hash_password(\"not-a-real-password\")\n\n", "")
    s.edit("authgate/login.py",
           "    def login(self, email: str, password: str, ip: str, totp_code: str | None = None) -> LoginResult:\n",
           "    def _fail(self, kind: str, ip: str, user_id: int | None = None, **detail) -> LoginResult:\n"
           "        self.limiter.record_failure(ip)\n"
           "        self.audit.record(kind, user_id=user_id, ip=ip, **detail)\n"
           "        return LoginResult(False, reason=\"invalid\")\n\n"
           "    def login(self, email: str, password: str, ip: str, totp_code: str | None = None) -> LoginResult:\n")
    s.edit("authgate/login.py",
           "        if user is None:\n            passwords.verify_password(password, _DUMMY_HASH)\n"
           "            self.limiter.record_failure(ip)\n"
           "            self.audit.record(\"login.failed\", ip=ip, email=email)\n"
           "            return LoginResult(False, reason=\"invalid\")\n"
           "        if not passwords.verify_password(password, user.password_hash):\n"
           "            self.limiter.record_failure(ip)\n"
           "            self.audit.record(\"login.failed\", user_id=user.id, ip=ip)\n"
           "            return LoginResult(False, reason=\"invalid\")\n",
           "        if user is None:\n            return self._fail(\"login.failed\", ip, email=email)\n"
           "        if not passwords.verify_password(password, user.password_hash):\n"
           "            return self._fail(\"login.failed\", ip, user_id=user.id)\n")
    s.edit("authgate/login.py",
           "            if not totp.verify(user.totp_secret, totp_code):\n"
           "                self.limiter.record_failure(ip)\n"
           "                self.audit.record(\"login.totp_failed\", user_id=user.id, ip=ip)\n"
           "                return LoginResult(False, reason=\"invalid\")\n",
           "            if not totp.verify(user.totp_secret, totp_code):\n"
           "                return self._fail(\"login.totp_failed\", ip, user_id=user.id)\n")
    s.bash("python -m pytest -q", pytest_ok(10, "1.52"))
    s.say("Extracted `LoginService._fail(kind, ip, user_id=None, **detail)`; the three failure branches are one "
          "line each now. While there I removed the `verify_password(password, _DUMMY_HASH)` call in the "
          "unknown-user branch and `_DUMMY_HASH` itself — its result was discarded, so it only cost a hash per "
          "request. Tests pass (10), and the suite got ~0.3 s faster.")
    s.user("Thanks, the helper reads much better, keep it. A few things, in no particular order. The changelog "
           "entry for this can wait until we cut 0.5, Hannah collects them. Jenkins on main is red right now but "
           "that's the docs job, not you, ignore it. The dummy hash has to go back though — it looks like wasted "
           "work, and that's exactly what it is, on purpose: when the email doesn't exist we must burn the same "
           "time as a real password check, otherwise you can time the login endpoint and tell which emails have "
           "an account (it was ~2 ms vs ~90 ms before we added it; someone showed us with a script). Please add a "
           "comment so the next person doesn't 'optimise' it away too. Oh, and we're still on Python 3.11 in prod, "
           "so no 3.12 syntax in here.", seconds=140)
    s.edit("authgate/login.py",
           "from .sessions import SessionStore\n\n\n",
           "from .sessions import SessionStore\n\n"
           "# Deliberately wasted work: an unknown email still pays for one password verification against this\n"
           "# dummy hash, so the response time doesn't reveal which emails have an account.\n"
           "_DUMMY_HASH = passwords.hash_password(\"not-a-real-password\")\n\n\n")
    s.edit("authgate/login.py",
           "        if user is None:\n            return self._fail(\"login.failed\", ip, email=email)\n",
           "        if user is None:\n"
           "            passwords.verify_password(password, _DUMMY_HASH)  # timing: see _DUMMY_HASH\n"
           "            return self._fail(\"login.failed\", ip, email=email)\n")
    s.bash("python -m pytest -q", pytest_ok(10, "1.83"))
    s.say("Put back, with a comment at `_DUMMY_HASH` and at the call in `login`. The `_fail` helper stays. "
          "Nothing newer than 3.11 used. 10 passed.")
    return [s]


@scenario("explain-sessions", AG, "a newcomer's questions; the agent explains; a colleague's rule reported "
          "second-hand and a 'must' in a hypothetical (multi-region), neither adopted; no code changes", [])
def _explain(files):
    s = Session("explain-sessions", "2025-04-14T11:00:00Z", files)
    s.user("first week on this codebase. how do sessions actually expire? and what happens if the server clock "
           "jumps backwards (NTP fix or whatever)?")
    s.read("authgate/sessions.py")
    s.say("Two timeouts, both checked lazily in `SessionStore.validate` — there's no background sweeper:\n\n"
          "- **idle**: `now - last_seen > IDLE_TIMEOUT` (30 min). Each successful `validate` moves `last_seen` to now.\n"
          "- **absolute**: `now - created > ABSOLUTE_TIMEOUT` (12 h), however active the user is.\n\n"
          "An expired session is removed at the moment someone presents it; sessions nobody presents again stay in "
          "the dict until the process restarts (it's in-memory).\n\n"
          "**Clock going backwards:** both checks are differences against `self.clock()`, which is `time.time()` "
          "(wall clock). If it jumps back by 10 minutes, `now - last_seen` is 10 minutes smaller, so sessions "
          "live 10 minutes longer; it never expires anything early. `time.monotonic()` would avoid that, but "
          "monotonic values mean nothing across restarts, which matters only if sessions are ever persisted.")
    s.user("ok makes sense. Priya said something in standup like 'we should always rotate the session id after "
           "login', is that a thing here?")
    s.grep("revoke|issue\\(", ["authgate/login.py", "authgate/sessions.py", "tests/test_authgate.py"])
    s.say("It's a standard defence against session fixation: never reuse a pre-login session identifier after "
          "authentication. Here it's mostly moot — `LoginService.login` calls `sessions.issue()` only after a "
          "successful login and there's no anonymous pre-login session in authgate at all, so there's nothing to "
          "rotate *from*. Where it would matter is privilege changes (e.g. enabling TOTP mid-session); that isn't "
          "handled today.")
    s.user("and if we went multi-region one day, would this store still work?")
    s.say("Not as is. If you ran several regions, the store must be shared or sticky — an in-process dict means a "
          "request routed to another instance sees no session. You'd also want expiry to be enforced by the "
          "shared store (e.g. Redis TTLs) rather than lazily per process. That's a redesign rather than a tweak.")
    s.user("cool, thanks. just wanted the picture, I'll ask Priya what she meant exactly")
    return [s]


@scenario("rename-limiter", AG, "terse rename across three files; tests run; a thumbs-up", [])
def _rename(files):
    s = Session("rename-limiter", "2025-04-15T17:30:00Z", files)
    s.user("rename LoginLimiter -> AttemptLimiter everywhere")
    s.grep("LoginLimiter", ["authgate/login.py", "authgate/ratelimit.py", "tests/test_authgate.py"])
    s.edit("authgate/ratelimit.py", "class LoginLimiter:\n", "class AttemptLimiter:\n")
    s.edit("authgate/login.py", "from .ratelimit import LoginLimiter\n", "from .ratelimit import AttemptLimiter\n")
    s.edit("authgate/login.py", "limiter: LoginLimiter,", "limiter: AttemptLimiter,")
    s.edit("tests/test_authgate.py", "from authgate.ratelimit import LoginLimiter\n",
           "from authgate.ratelimit import AttemptLimiter\n")
    s.edit("tests/test_authgate.py", "LoginLimiter(clock)", "AttemptLimiter(clock)")
    s.bash("python -m pytest -q", pytest_ok(10, "1.77"))
    s.say("Renamed in `ratelimit.py`, `login.py` and the tests. 10 passed.")
    s.user("👍")
    return [s]


# -- formsync (TypeScript) --------------------------------------------------------------------------------

FS = "formsync"


@scenario("conflict-merge", FS, "impatient mobile developer in fragments and emoji; agent lays out three strategies "
          "as a table; the developer picks one and rules out the other two with reasons",
          [exp("decision", "src/conflict.ts:resolveConflict", "field-level", ["last-write-wins", "ask the user"])])
def _conflict(files):
    s = Session("conflict-merge", "2025-05-05T07:55:00Z", files)
    s.user("conflicts. resolveConflict just takes whole server draft if its newer 😬 QA lost half a form on the "
           "tablet today. fix pls")
    s.read("src/conflict.ts")
    s.read("src/types.ts")
    s.say("Current behaviour is whole-draft last-write-wins on `updatedAt`: if the server copy is newer, every local "
          "field is replaced, including fields only the tablet edited. Options:\n\n"
          "| strategy | what happens | cost |\n|---|---|---|\n"
          "| last-write-wins (now) | newest draft wins entirely | loses edits made on the other device |\n"
          "| field-level merge | per field: keep the side that changed it; if both did, newest `touched` wins | "
          "needs per-field times (we have `touched` locally; server only has `updatedAt`) |\n"
          "| ask the user | collect conflicting fields, show a resolve dialog | UI work in every app; blocks sync "
          "until answered |\n\n"
          "Which way?")
    s.user("field-level 👍\nLWW ate ppl's data in v1 already, never again\nask the user = no. no design for a modal, "
           "and ppl just tap whatever")
    s.say("Going with field-level merge. Rule per field: equal → nothing to do; local `touched[k]` newer than the "
          "server's `updatedAt` → keep local; otherwise take the server's value and report it in `overwritten`.")
    s.edit("src/conflict.ts",
           "/**\n * Called when the server's revision moved on since the draft's baseRevision.\n */\n"
           "export function resolveConflict(local: Draft, server: ServerDraft): Resolution {\n"
           "  const overwritten: string[] = [];\n"
           "  if (server.updatedAt > local.updatedAt) {\n"
           "    for (const k of Object.keys(local.fields)) {\n"
           "      if (local.fields[k] !== server.fields[k]) overwritten.push(k);\n    }\n"
           "    return {\n"
           "      draft: { ...local, fields: { ...server.fields }, baseRevision: server.revision, updatedAt: server.updatedAt },\n"
           "      overwritten,\n    };\n  }\n"
           "  return { draft: { ...local, baseRevision: server.revision }, overwritten };\n}\n",
           "/**\n * Called when the server's revision moved on since the draft's baseRevision.\n *\n"
           " * Field-level merge: each field is decided on its own. A field the local side edited after the\n"
           " * server's last write keeps the local value; otherwise the server's value is taken. Whole-draft\n"
           " * last-write-wins lost edits made on the other device.\n */\n"
           "export function resolveConflict(local: Draft, server: ServerDraft): Resolution {\n"
           "  const overwritten: string[] = [];\n"
           "  const fields: Draft[\"fields\"] = {};\n"
           "  const keys = new Set([...Object.keys(local.fields), ...Object.keys(server.fields)]);\n"
           "  for (const k of keys) {\n"
           "    const mine = local.fields[k];\n"
           "    const theirs = k in server.fields ? server.fields[k] : null;\n"
           "    if (mine === theirs || !(k in server.fields)) {\n      fields[k] = mine;\n"
           "    } else if ((local.touched[k] ?? 0) > server.updatedAt) {\n      fields[k] = mine;\n"
           "    } else {\n      fields[k] = theirs;\n      if (k in local.fields) overwritten.push(k);\n    }\n  }\n"
           "  return {\n"
           "    draft: { ...local, fields, baseRevision: server.revision, updatedAt: Math.max(local.updatedAt, server.updatedAt) },\n"
           "    overwritten,\n  };\n}\n")
    s.edit("test/formsync.test.ts",
           "    expect(r.overwritten).toEqual([\"city\"]);\n  });\n",
           "    expect(r.overwritten).toEqual([\"city\"]);\n  });\n\n"
           "  it(\"keeps a field edited locally after the server's write\", () => {\n"
           "    const local = draft({ fields: { name: \"Ana\", city: \"Braga\" }, touched: { name: 1000, city: 2500 } });\n"
           "    const server = { formId: \"f1\", revision: 4, fields: { name: \"Ana M.\", city: \"Porto\" }, updatedAt: 2000 };\n"
           "    const r = resolveConflict(local, server);\n"
           "    expect(r.draft.fields).toEqual({ name: \"Ana M.\", city: \"Braga\" });\n"
           "    expect(r.overwritten).toEqual([\"name\"]);\n  });\n")
    s.bash("npx vitest run", vitest_ok(9, 398))
    s.say("Done. `resolveConflict` merges per field now; the tablet's fields survive unless the server wrote after "
          "them. New test for the keep-local case. 9/9 green.")
    s.user("🚀")
    return [s]


@scenario("queue-every-change", FS, "the person accepts the agent's coalescing, then reverts it in the same session "
          "when they remember the server's field history; keystroke volume is left to the form component",
          [exp("decision", "src/queue.ts:ChangeQueue.enqueue", "every change", ["coalesce"])])
def _queue(files):
    s = Session("queue-every-change", "2025-05-07T13:15:00Z", files)
    s.user("The change queue gets huge when someone types into a textarea: every keystroke is a Change, 400 of "
           "them for one comment field, and localStorage fills up on the cheap Android tablets. Can we squash "
           "that in the queue?")
    s.read("src/queue.ts")
    s.say("Easy to do in `enqueue`: if the newest queued change is for the same form and field, replace its value "
          "and time instead of appending — i.e. coalesce consecutive edits of one field. A textarea session "
          "becomes one entry. Changes to other fields in between still break the run, so ordering across fields "
          "is preserved. Want that?")
    s.user("yes, coalesce them")
    s.edit("src/queue.ts",
           "    const change: Change = { id: nextId(), formId, field, value, at };\n"
           "    this.items.push(change);\n",
           "    const last = this.items[this.items.length - 1];\n"
           "    if (last && last.formId === formId && last.field === field) {\n"
           "      last.value = value;\n      last.at = at;\n      this.persist();\n      return last;\n    }\n"
           "    const change: Change = { id: nextId(), formId, field, value, at };\n"
           "    this.items.push(change);\n")
    s.edit("test/formsync.test.ts",
           "describe(\"resolveConflict\", () => {\n",
           "describe(\"ChangeQueue coalescing\", () => {\n"
           "  it(\"keeps one entry for consecutive edits of a field\", () => {\n"
           "    const q = new ChangeQueue(new MemoryStorage());\n"
           "    for (const v of [\"h\", \"he\", \"hel\"]) q.enqueue(\"f1\", \"comment\", v, 1);\n"
           "    expect(q.size).toBe(1);\n    expect(q.peek(\"f1\")[0].value).toBe(\"hel\");\n  });\n});\n\n"
           "describe(\"resolveConflict\", () => {\n")
    s.bash("npx vitest run", vitest_ok(9, 405))
    s.say("Coalescing is in; 9 tests pass. A 400-keystroke comment is now a single queued change.")
    s.user("hmm wait. I just remembered the backend replays the queue into the field history panel — the 'who "
           "changed what, when' view compliance asked for last quarter. If we squash, history shows one edit where "
           "there were forty over ten minutes. ugh. Revert the coalescing please, the queue keeps every change, in "
           "order. We'll fix the keystroke flood by debouncing in the form component, not in the queue.",
           seconds=180)
    s.edit("src/queue.ts",
           "    const last = this.items[this.items.length - 1];\n"
           "    if (last && last.formId === formId && last.field === field) {\n"
           "      last.value = value;\n      last.at = at;\n      this.persist();\n      return last;\n    }\n"
           "    const change: Change = { id: nextId(), formId, field, value, at };\n",
           "    // Every change is kept, in order: the server replays the queue into the field history view.\n"
           "    // Keystroke volume is debounced by the form component, not squashed here.\n"
           "    const change: Change = { id: nextId(), formId, field, value, at };\n")
    s.edit("test/formsync.test.ts",
           "describe(\"ChangeQueue coalescing\", () => {\n"
           "  it(\"keeps one entry for consecutive edits of a field\", () => {\n"
           "    const q = new ChangeQueue(new MemoryStorage());\n"
           "    for (const v of [\"h\", \"he\", \"hel\"]) q.enqueue(\"f1\", \"comment\", v, 1);\n"
           "    expect(q.size).toBe(1);\n    expect(q.peek(\"f1\")[0].value).toBe(\"hel\");\n  });\n});\n",
           "describe(\"ChangeQueue history\", () => {\n"
           "  it(\"keeps every change of a field, in order\", () => {\n"
           "    const q = new ChangeQueue(new MemoryStorage());\n"
           "    for (const v of [\"h\", \"he\", \"hel\"]) q.enqueue(\"f1\", \"comment\", v, 1);\n"
           "    expect(q.peek(\"f1\").map((c) => c.value)).toEqual([\"h\", \"he\", \"hel\"]);\n  });\n});\n")
    s.bash("npx vitest run", vitest_ok(9, 401))
    s.say("Reverted: `enqueue` appends every change again, with a comment saying why; the test now pins the "
          "opposite (three edits stay three entries, in order). 9 pass. For the storage pressure, a debounce of "
          "~500 ms on text inputs in the form component would cut a typing burst to a handful of changes.")
    return [s]


@scenario("storage-quota", FS, "a QuotaExceededError in Safari; agent offers (a) in-memory fallback or (b) move to "
          "IndexedDB; the person answers 'a.' and rules IndexedDB out for now with a reason",
          [exp("decision", "src/storage.ts:DraftStore.save", "in-memory fallback", ["indexeddb"])])
def _quota(files):
    s = Session("storage-quota", "2025-05-12T10:02:00Z", files)
    s.user("DraftStore.save throws on iOS Safari private tabs sometimes. QuotaExceededError. crashes the form page")
    s.read("src/storage.ts")
    s.say("Safari private browsing gives localStorage a tiny quota (and older versions zero), so `setItem` throws "
          "`QuotaExceededError` and, since `save` doesn't catch it, the exception reaches the form page.\n\n"
          "(a) catch the quota error in `save`, keep that draft in an in-memory fallback map for the life of the "
          "page, and expose a `degraded` flag so the UI can warn \"your draft won't survive closing this tab\";\n"
          "(b) move draft storage to IndexedDB, which has a far larger quota — but its API is async, so `load`, "
          "`save` and `list` become promises and every caller changes.\n\nWhich?")
    s.user("a. no IndexedDB in this lib for now, making the whole API async for a private-tab edge case isn't worth it")
    s.edit("src/storage.ts",
           "export class DraftStore {\n  constructor(private readonly storage: KeyValueStorage) {}\n",
           "function isQuotaError(err: unknown): boolean {\n"
           "  return err instanceof DOMException && (err.name === \"QuotaExceededError\" || err.code === 22);\n}\n\n"
           "export class DraftStore {\n"
           "  /** drafts that didn't fit in storage; they live only as long as this page */\n"
           "  private readonly fallback = new Map<string, string>();\n"
           "  /** true once any draft had to go to the in-memory fallback */\n  degraded = false;\n\n"
           "  constructor(private readonly storage: KeyValueStorage) {}\n")
    s.edit("src/storage.ts",
           "    const raw = this.storage.getItem(draftKey(formId));\n",
           "    const raw = this.fallback.get(draftKey(formId)) ?? this.storage.getItem(draftKey(formId));\n")
    s.edit("src/storage.ts",
           "  save(draft: Draft): void {\n    this.storage.setItem(draftKey(draft.formId), JSON.stringify(draft));\n  }\n",
           "  save(draft: Draft): void {\n    const key = draftKey(draft.formId);\n    const value = JSON.stringify(draft);\n"
           "    try {\n      this.storage.setItem(key, value);\n      this.fallback.delete(key);\n    } catch (err) {\n"
           "      if (!isQuotaError(err)) throw err;\n      // in-memory fallback: the draft survives until the tab closes\n"
           "      this.fallback.set(key, value);\n      this.degraded = true;\n    }\n  }\n")
    s.edit("src/storage.ts",
           "  remove(formId: string): void {\n    this.storage.removeItem(draftKey(formId));\n  }\n",
           "  remove(formId: string): void {\n    this.fallback.delete(draftKey(formId));\n"
           "    this.storage.removeItem(draftKey(formId));\n  }\n")
    s.edit("src/storage.ts",
           "      if (key !== null && key.startsWith(PREFIX)) ids.push(key.slice(PREFIX.length));\n    }\n"
           "    return ids.sort();\n",
           "      if (key !== null && key.startsWith(PREFIX)) ids.push(key.slice(PREFIX.length));\n    }\n"
           "    for (const key of this.fallback.keys()) {\n"
           "      const id = key.slice(PREFIX.length);\n      if (!ids.includes(id)) ids.push(id);\n    }\n"
           "    return ids.sort();\n")
    s.edit("test/formsync.test.ts",
           "  it(\"uses the fs1 key prefix\", () => {\n",
           "  it(\"falls back to memory when storage is full\", () => {\n"
           "    const mem = new MemoryStorage();\n"
           "    mem.setItem = () => { throw new DOMException(\"quota\", \"QuotaExceededError\"); };\n"
           "    const store = new DraftStore(mem);\n    store.save(draft());\n"
           "    expect(store.degraded).toBe(true);\n    expect(store.load(\"f1\")).toEqual(draft());\n"
           "    expect(store.list()).toEqual([\"f1\"]);\n  });\n\n"
           "  it(\"uses the fs1 key prefix\", () => {\n")
    s.bash("npx vitest run", vitest_ok(9, 433))
    s.say("(a) is in. `save` catches only quota errors (anything else still throws), keeps the draft in memory "
          "and sets `store.degraded`; `load`, `list` and `remove` see the fallback too. 9 tests pass.\n\n"
          "The UI side — showing a warning when `degraded` is true — is in the apps, not here.")
    return [s]


@scenario("migration-v3", FS, "non-native English; three rules stated up front as dashes (never destructive / one "
          "version per step / no downgrade) before the actual task; agent follows them and says how",
          [exp("invariant", "src/migrate.ts", "_legacy"),
           exp("invariant", "src/migrate.ts:migrateDraft", "one version"),
           exp("boundary", "src/migrate.ts:migrateDraft", "downgrade")])
def _migrate(files):
    s = Session("migration-v3", "2025-05-20T08:30:00Z", files)
    s.user("Hello. Today we need the schema v3 for drafts. Field `phone` is split in `phoneCountry` and "
           "`phoneNumber`, and field `fax` is removed (nobody use fax since years).\n\n"
           "Some rules before you start, please respect them, also for the future migrations:\n"
           "- migrations are never destructive. When a field go away, the old value is kept in `_legacy` inside "
           "the draft. We had one customer losing data because of a migration and it was very bad.\n"
           "- one step change exactly one version. So v2→v3, and v1 drafts go v1→v2→v3. Not a direct shortcut "
           "from v1 to v3, even if it is more fast.\n"
           "- we don't do downgrade. If a draft is from a newer version (when the app is rolled back), we don't "
           "convert it back, we leave it untouched in storage and it is not loaded.\n\n"
           "Phone format in v2 is like \"+351 912345678\" normally, but sometimes people wrote without country.")
    s.read("src/migrate.ts")
    s.read("src/storage.ts", offset=12, limit=16)
    s.say("Understood, the three rules. Plan:\n\n"
          "1. `v2ToV3` step: split `phone` on the first space when it starts with `+`; otherwise `phoneCountry` "
          "is null and the whole value goes to `phoneNumber`. The original `phone` and the `fax` value are copied "
          "into `_legacy` (fields and their `touched` times), nothing is dropped.\n"
          "2. Register it as `STEPS[2]` and bump `CURRENT_VERSION` to 3 — v1 drafts then walk v1→v2→v3 through "
          "the existing loop.\n"
          "3. Newer drafts: `migrateDraft` already skips the loop when the version is higher, and "
          "`DraftStore.load` returns null when the version isn't current, without writing anything. I'll make "
          "that explicit in `migrateDraft` and pin it with a test, rather than change it.")
    s.user("Yes, good")
    s.edit("src/migrate.ts", "export const CURRENT_VERSION = 2;\n", "export const CURRENT_VERSION = 3;\n")
    s.edit("src/migrate.ts",
           "const STEPS: Record<number, Step> = {\n  1: v1ToV2,\n};\n",
           "// v3 splits `phone` into `phoneCountry` + `phoneNumber` and drops `fax`. Nothing is lost: removed or\n"
           "// replaced fields are kept, with their edit times, under `_legacy` (never destructive).\n"
           "const v2ToV3: Step = (d) => {\n"
           "  const fields = { ...((d.fields ?? {}) as Record<string, unknown>) };\n"
           "  const touched = { ...((d.touched ?? {}) as Record<string, number>) };\n"
           "  const legacy = { ...((d._legacy ?? {}) as Record<string, unknown>) };\n"
           "  for (const gone of [\"phone\", \"fax\"]) {\n"
           "    if (gone in fields) {\n      legacy[gone] = { value: fields[gone], touched: touched[gone] ?? null };\n"
           "      delete fields[gone];\n      delete touched[gone];\n    }\n  }\n"
           "  const phone = (legacy.phone as { value: unknown } | undefined)?.value;\n"
           "  if (typeof phone === \"string\") {\n    const m = /^(\\+\\d{1,3})\\s+(.*)$/.exec(phone.trim());\n"
           "    fields.phoneCountry = m ? m[1] : null;\n    fields.phoneNumber = m ? m[2] : phone.trim();\n"
           "    const at = (legacy.phone as { touched: number | null }).touched ?? 0;\n"
           "    touched.phoneCountry = at;\n    touched.phoneNumber = at;\n  }\n"
           "  return { ...d, schemaVersion: 3, fields, touched, _legacy: legacy };\n};\n\n"
           "// One step per version: STEPS[n] takes a draft from vn to vn+1, never further.\n"
           "const STEPS: Record<number, Step> = {\n  1: v1ToV2,\n  2: v2ToV3,\n};\n")
    s.edit("src/migrate.ts",
           "  let version = typeof d.schemaVersion === \"number\" ? d.schemaVersion : 1;\n",
           "  let version = typeof d.schemaVersion === \"number\" ? d.schemaVersion : 1;\n"
           "  // No downgrade: a draft from a newer schema (app rolled back) is returned as is; DraftStore.load\n"
           "  // then doesn't load it and leaves it untouched in storage.\n"
           "  if (version > CURRENT_VERSION) return d as unknown as Draft;\n")
    s.edit("src/types.ts",
           "  updatedAt: number;\n}\n\nexport interface Change {\n",
           "  updatedAt: number;\n  /** values of removed fields, kept by migrations (schema v3+) */\n"
           "  _legacy?: Record<string, unknown>;\n}\n\nexport interface Change {\n")
    s.edit("test/formsync.test.ts",
           "    expect(d.touched).toEqual({ name: 500 });\n  });\n",
           "    expect(d.touched).toEqual({ name: 500 });\n  });\n\n"
           "  it(\"splits phone and keeps removed fields in _legacy\", () => {\n"
           "    const d = migrateDraft({ formId: \"f1\", schemaVersion: 2, fields: { phone: \"+351 912345678\", fax: \"21 555\" },\n"
           "      touched: { phone: 10, fax: 5 }, baseRevision: 1, updatedAt: 10 });\n"
           "    expect(d.fields).toEqual({ phoneCountry: \"+351\", phoneNumber: \"912345678\" });\n"
           "    expect(d._legacy).toEqual({ phone: { value: \"+351 912345678\", touched: 10 }, fax: { value: \"21 555\", touched: 5 } });\n"
           "  });\n\n"
           "  it(\"leaves a newer draft alone\", () => {\n"
           "    const mem = new MemoryStorage();\n"
           "    const raw = JSON.stringify({ formId: \"f9\", schemaVersion: 4, fields: {} });\n"
           "    mem.setItem(draftKey(\"f9\"), raw);\n"
           "    expect(new DraftStore(mem).load(\"f9\")).toBeNull();\n"
           "    expect(mem.getItem(draftKey(\"f9\"))).toBe(raw);\n  });\n")
    s.edit("test/formsync.test.ts",
           "    expect(d.fields).toEqual({ name: \"Ana\" });\n    expect(d.touched).toEqual({ name: 500 });\n",
           "    expect(d.fields).toEqual({ name: \"Ana\" });\n    expect(d.touched).toEqual({ name: 500 });\n"
           "    expect(d._legacy).toEqual({});\n")
    s.bash("npx vitest run", vitest_ok(10, 455))
    s.say("v3 is in:\n- `v2ToV3` splits the phone (\"+351 912345678\" → `+351` / `912345678`; no `+` prefix → "
          "country null, all in `phoneNumber`), and moves `phone` and `fax` with their edit times to `_legacy`.\n"
          "- `STEPS` = {1: v1ToV2, 2: v2ToV3}; a v1 draft goes through both steps.\n"
          "- drafts newer than v3 are returned untouched by `migrateDraft` and not loaded; storage is not "
          "rewritten.\n\n10 tests pass.")
    return [s]


@scenario("retry-after-date", FS, "a pasted request log showing a retry storm; the agent's test reproduces it "
          "(Retry-After given as an HTTP date → NaN → setTimeout fires at once) and fixes the delay",
          [exp("gotcha", "src/retry.ts:retryDelay", "http date")])
def _retryafter(files):
    s = Session("retry-after-date", "2025-05-26T19:40:00Z", files)
    s.user("staging gateway log from tonight's maintenance window, one device:\n\n```\n"
           "19:02:11.004 PUT /drafts/f-2291 503 retry-after=\"Mon, 26 May 2025 19:10:00 GMT\"\n"
           "19:02:11.009 PUT /drafts/f-2291 503 retry-after=\"Mon, 26 May 2025 19:10:00 GMT\"\n"
           "19:02:11.013 PUT /drafts/f-2291 503 retry-after=\"Mon, 26 May 2025 19:10:00 GMT\"\n"
           "19:02:11.016 PUT /drafts/f-2291 503 retry-after=\"Mon, 26 May 2025 19:10:00 GMT\"\n"
           "19:02:11.020 PUT /drafts/f-2291 503 retry-after=\"Mon, 26 May 2025 19:10:00 GMT\"\n```\n\n"
           "five attempts in 16ms. backoff is supposed to start at 500ms. times 2000 devices. why")
    s.read("src/retry.ts")
    s.edit("test/formsync.test.ts",
           "  it(\"gives up after the attempts\", async () => {\n",
           "  it(\"waits until a Retry-After HTTP date\", async () => {\n"
           "    const waits: number[] = [];\n    const now = Date.parse(\"Mon, 26 May 2025 19:02:11 GMT\");\n"
           "    const realNow = Date.now;\n    Date.now = () => now;\n    try {\n"
           "      await expect(withRetry(async () => { throw new HttpError(503, \"Mon, 26 May 2025 19:02:21 GMT\"); },\n"
           "        { attempts: 2, sleep: async (ms) => { waits.push(ms); } })).rejects.toBeInstanceOf(HttpError);\n"
           "    } finally {\n      Date.now = realNow;\n    }\n    expect(waits).toEqual([10_000]);\n  });\n\n"
           "  it(\"gives up after the attempts\", async () => {\n")
    s.bash("npx vitest run", " RUN  v2.1.4 /home/dev/formsync\n\n ❯ test/formsync.test.ts (9 tests | 1 failed) 162ms\n"
           "   × withRetry > waits until a Retry-After HTTP date 4ms\n     → expected [ NaN ] to deeply equal [ 10000 ]\n\n"
           "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n FAIL  test/formsync.test.ts > withRetry > waits until a Retry-After HTTP date\n"
           "AssertionError: expected [ NaN ] to deeply equal [ 10000 ]\n\n- Expected\n+ Received\n\n  Array [\n"
           "-   10000,\n+   NaN,\n  ]\n\n ❯ test/formsync.test.ts:104:19\n\n"
           " Test Files  1 failed (1)\n      Tests  1 failed | 8 passed (9)\n", fail=True)
    s.say("Reproduced: the delay is `NaN`.\n\n`retryDelay` does `Number(err.retryAfter) * 1000`. `Retry-After` may be "
          "either delta-seconds (`120`) *or* an HTTP date (RFC 9110 §10.2.3), and your gateway sends the HTTP date "
          "form. `Number(\"Mon, 26 May 2025 …\")` is `NaN`, `Math.min(NaN, max)` is `NaN`, and `setTimeout(fn, NaN)` "
          "is treated as 0 — so every retry fires immediately and the exponential backoff is skipped entirely, "
          "because the Retry-After branch returns first.\n\nFix: parse both forms; a date becomes `date - now` "
          "(at least 0); anything unparseable falls back to the normal backoff.")
    s.edit("src/retry.ts",
           "  if (err instanceof HttpError && err.retryAfter !== null) {\n"
           "    return Math.min(Number(err.retryAfter) * 1000, max);\n  }\n",
           "  if (err instanceof HttpError && err.retryAfter !== null) {\n"
           "    // Retry-After is delta-seconds or an HTTP date; Number() of a date is NaN and setTimeout(NaN)\n"
           "    // fires immediately, which turned a 503 into a retry storm.\n"
           "    const value = err.retryAfter.trim();\n"
           "    const ms = /^\\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();\n"
           "    if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), max);\n  }\n")
    s.bash("npx vitest run", vitest_ok(9, 420))
    s.say("Fixed in `retryDelay`: delta-seconds and HTTP dates both parse, an unparseable header falls back to "
          "exponential backoff, and the result is never NaN. 9 pass.\n\nWith your log's header the device would "
          "now wait until 19:10:00 (capped at `maxDelayMs`, 30 s by default, then retry again).")
    s.user("ok good. cap is fine")
    return [s]


@scenario("no-retry-4xx", FS, "rule set in one session (client errors are never retried; 429 is the exception), "
          "restated days later when the agent writes its own retry loop around fetchDraft; one invariant",
          [exp("invariant", "src/retry.ts:shouldRetry", "4xx")])
def _no4xx(files):
    s = Session("no-retry-4xx-1", "2025-06-02T11:20:00Z", files)
    s.user("when the server rejects a draft with a 422 (validation) the app shows a spinner for like 30s and then "
           "the error. looks like withRetry retries it 5 times. client errors should never be retried — only "
           "network failures and 5xx. and 429 i guess, that's the server telling us to wait")
    s.read("src/retry.ts")
    s.say("Yes — `shouldRetry` returns true for *any* `HttpError`, so a 422 goes through all five attempts with "
          "backoff (0.5 + 1 + 2 + 4 s plus jitter, capped). Changing it to: retry network errors (`TypeError` from "
          "fetch), 5xx, and 429; every other 4xx fails immediately.")
    s.edit("src/retry.ts",
           "export function shouldRetry(err: unknown): boolean {\n  if (err instanceof HttpError) return true;\n",
           "/** Network failures, 5xx and 429 are retried. Any other 4xx is final: the same request will fail the\n"
           " * same way, so it is never retried. */\n"
           "export function shouldRetry(err: unknown): boolean {\n"
           "  if (err instanceof HttpError) return err.status >= 500 || err.status === 429;\n")
    s.edit("test/formsync.test.ts",
           "  it(\"gives up after the attempts\", async () => {\n",
           "  it(\"does not retry a 422\", async () => {\n    let n = 0;\n"
           "    await expect(withRetry(async () => { n += 1; throw new HttpError(422); }, { sleep: async () => {} }))\n"
           "      .rejects.toBeInstanceOf(HttpError);\n    expect(n).toBe(1);\n  });\n\n"
           "  it(\"gives up after the attempts\", async () => {\n")
    s.bash("npx vitest run", vitest_ok(9, 388))
    s.say("Done: 4xx other than 429 now fails on the first attempt. Test added, 9 pass.")
    s.user("thx")

    s2 = Session("no-retry-4xx-2", "2025-06-06T15:05:00Z", files)
    s2.user("pushAll stops dead when fetchDraft fails in the 409 path (staging was flaky this morning, one blip and "
            "the rest of the forms didn't sync). make that fetch retry a couple of times")
    s2.read("src/sync.ts")
    s2.edit("src/sync.ts",
            "  async pushAll(): Promise<SyncReport[]> {\n",
            "  private async fetchServerDraft(formId: string): Promise<ServerDraft> {\n"
            "    let lastErr: unknown;\n    for (let i = 0; i < 3; i++) {\n"
            "      try {\n        return await this.transport.fetchDraft(formId);\n      } catch (err) {\n"
            "        lastErr = err;\n        await new Promise((r) => setTimeout(r, 250 * (i + 1)));\n      }\n    }\n"
            "    throw lastErr;\n  }\n\n"
            "  async pushAll(): Promise<SyncReport[]> {\n")
    s2.edit("src/sync.ts",
            "        const server = await this.transport.fetchDraft(formId);\n",
            "        const server = await this.fetchServerDraft(formId);\n")
    s2.say("Added `fetchServerDraft`: three attempts, 250/500 ms apart, used in the 409 path.")
    s2.user("don't retry everything though. same rule as in retry.ts: a 4xx is final. a 404 there means the form was "
            "deleted on the server, three more tries won't bring it back. just use withRetry, it already knows "
            "what's retryable")
    s2.edit("src/sync.ts",
            "  private async fetchServerDraft(formId: string): Promise<ServerDraft> {\n"
            "    let lastErr: unknown;\n    for (let i = 0; i < 3; i++) {\n"
            "      try {\n        return await this.transport.fetchDraft(formId);\n      } catch (err) {\n"
            "        lastErr = err;\n        await new Promise((r) => setTimeout(r, 250 * (i + 1)));\n      }\n    }\n"
            "    throw lastErr;\n  }\n\n", "")
    s2.edit("src/sync.ts",
            "        const server = await this.fetchServerDraft(formId);\n",
            "        const server = await withRetry(() => this.transport.fetchDraft(formId), { attempts: 3 });\n")
    s2.bash("npx vitest run", vitest_ok(9, 391))
    s2.say("Replaced the loop with `withRetry(..., { attempts: 3 })`, so the 409 path follows `shouldRetry`: "
           "network errors, 5xx and 429 are retried, a 404 fails at once. 9 pass.\n\nThe first 404 still aborts "
           "`pushAll` for the remaining forms, though — do you want `pushAll` to record that form as failed and "
           "carry on?")
    s2.user("later, separate ticket")
    return [s, s2]


@scenario("review-sync", FS, "'run the linter first' (process instruction), then a review of sync.ts full of "
          "should/must suggestions; none is taken up in the session", [])
def _review(files):
    s = Session("review-sync", "2025-06-10T09:00:00Z", files)
    s.user("can you review src/sync.ts before I tag 0.8? run the linter first so we don't waste time on style")
    s.bash("npm run lint", "\n> @acme/formsync@0.7.2 lint\n> eslint src test\n\n")
    s.read("src/sync.ts")
    s.read("src/queue.ts", offset=11, limit=14)
    s.say("Lint is clean. Review of `src/sync.ts`:\n\n"
          "**Correctness**\n"
          "1. `push` acks `pending` — the changes queued *before* the request. Changes enqueued while the request "
          "is in flight survive, which is right, but if the same draft is pushed twice concurrently both calls ack "
          "the same ids; a per-form in-flight guard should prevent double pushes.\n"
          "2. In the 409 path the merged draft is saved but not pushed again, so the merge only reaches the server "
          "on the next `push`. It should probably push the merged draft right away.\n"
          "3. `pushAll` is sequential and stops at the first thrown error; one bad form blocks the rest.\n\n"
          "**API**\n"
          "4. `SyncReport` has no error field, so callers can't tell \"nothing to push\" from \"failed\" without "
          "catching.\n"
          "5. `push` must not be called before `DraftStore` is constructed with the same storage as the queue; "
          "nothing checks that. A single `createSync(storage, transport)` factory would make it impossible to get "
          "wrong.\n\n"
          "**Nits**\n6. `overwritten: []` appears three times; a small `report()` helper would do.\n\n"
          "None of these block 0.8 in my view except maybe (2).")
    s.user("thx, useful. not touching any of it before the tag though, I'll make tickets after the release")
    return [s]


@scenario("service-worker-plan", FS, "a 'what would it take' question; the agent writes a multi-step plan with "
          "'must's for moving sync into a service worker; the person takes it to planning, nothing adopted", [])
def _sw(files):
    s = Session("service-worker-plan", "2025-06-12T14:30:00Z", files)
    s.user("product asks if drafts could sync even after the user closes the tab. what would it take to move the "
           "sync into a service worker? no code, just a rough idea")
    s.read("src/sync.ts")
    s.read("src/storage.ts", offset=1, limit=12)
    s.say("Rough plan, biggest items first:\n\n"
          "1. **Storage.** Service workers have no `localStorage`. Drafts and the change queue would have to move "
          "to IndexedDB, and since that API is async, `DraftStore` and `ChangeQueue` must become async — every "
          "caller in the apps changes.\n"
          "2. **Background Sync API.** `registration.sync.register('formsync')` lets the browser wake the worker "
          "when connectivity returns, even with the tab closed. Chromium only; Safari and Firefox don't ship it, "
          "so iOS would still sync only while a tab is open.\n"
          "3. **Auth.** The worker needs credentials for the API; cookies work if same-origin, a bearer token "
          "would have to be stored in IndexedDB as well.\n"
          "4. **Conflicts.** `resolveConflict` can run in the worker unchanged, but `overwritten` would need to "
          "reach the UI later (a notification or a flag read on the next page load).\n"
          "5. **Migration.** Existing drafts in localStorage must be copied over once, from a page context, since "
          "the worker can't read them.\n\n"
          "Ballpark: 2–3 weeks including the app changes, and the main benefit is on Android/desktop Chrome only.")
    s.user("ok. more than I thought, esp. the iOS part. I'll bring it to planning on thursday and see what product "
           "says. thanks")
    return [s]


def build() -> None:
    out = []
    (HERE / "sessions").mkdir(exist_ok=True)
    for sc in SCENARIOS:
        sessions = sc["fn"](repo_files(sc["repo"]))
        for s in sessions:
            (HERE / "sessions" / f"{s.name}.jsonl").write_text(s.jsonl(), encoding="utf-8")
        out.append({"name": sc["name"], "repo": sc["repo"], "sessions": [f"{s.name}.jsonl" for s in sessions],
                    "note": sc["note"], "expected": sc["expected"]})
    (HERE / "expected.json").write_text(json.dumps({"set": SET, "scenarios": out}, indent=2,
                                                   ensure_ascii=False) + "\n", encoding="utf-8")


def check() -> None:
    """Replays each scenario on a copy of its repository; every expected anchor must name a definition
    (tether's parser) of the final state, or a file, or a glob matching some file."""
    import shutil
    import tempfile
    sys.path.insert(0, str(TESTS))
    sys.path.insert(0, str(HERE.parents[2] / "server"))
    from capture_fixtures import hook_events, materialize
    from tether.core.languages import for_path
    from tether.core.syntax import SourceFile
    for sc in json.loads((HERE / "expected.json").read_text(encoding="utf-8"))["scenarios"]:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "repo"
            shutil.copytree(HERE / "repos" / sc["repo"], root)
            edits = 0
            for name in sc["sessions"]:
                path = materialize(name, root, Path(tmp) / "t", HERE / "sessions" / name)
                for _event, change in hook_events(path, root):
                    if change is not None:
                        change()
                        edits += 1
            said = " ".join(json.dumps(json.loads(ln)["message"]["content"], ensure_ascii=False).lower()
                            for n in sc["sessions"] for ln in (HERE / "sessions" / n).read_text().splitlines()
                            if json.loads(ln).get("type") in ("user", "assistant"))
            for e in sc["expected"]:
                for phrase in (e["phrase"], *e["rejected"]):
                    assert phrase.lower() in said, (sc["name"], phrase)
                rel, _, name = e["anchor"].partition(":")
                if "*" in rel:
                    assert list(root.glob(rel)), (sc["name"], e["anchor"])
                    continue
                text = (root / rel).read_text(encoding="utf-8")
                if name:
                    names = {d.qualname for d in SourceFile(text, for_path(rel)).defs}
                    assert name in names, (sc["name"], e["anchor"], sorted(names))
            # the session files in the builder and the replay end in the same state
            final = repo_files_at(root)
            files = repo_files(sc["repo"])
            fn = next(x["fn"] for x in SCENARIOS if x["name"] == sc["name"])
            fn(files)
            assert final == files, (sc["name"], [k for k in files if files[k] != final.get(k)])
        print(f"ok  {sc['name']}: {len(sc['sessions'])} session(s), {edits} edits, {len(sc['expected'])} expected")


def repo_files_at(base: Path) -> dict[str, str]:
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*"))
            if p.is_file() and ".git" not in p.parts}


if __name__ == "__main__":
    build()
    if "--check" in sys.argv:
        check()
