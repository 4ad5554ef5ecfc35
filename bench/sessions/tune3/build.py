"""Writes the tune3 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``flagd`` (Python, a feature-flag service) and
``inkwell`` (TypeScript, a markdown-to-HTML static blog builder). Sessions are written with the
``Session`` builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after
changing a scenario (outputs are committed). ``PYTHONPATH=<worktree>/server python3 build.py --check``
also replays every scenario on a copy of its repository and checks, with tether's own parser,
that every expected anchor names a definition of the final state.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
TESTS = HERE.parents[2] / "tests"
sys.path.insert(0, str(TESTS / "fixtures" / "transcripts"))
from build import Session  # noqa: E402

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


def vitest_ok(files: list[tuple[str, int]], ms: int = 412) -> str:
    lines = [" RUN  v1.4.0 /home/jo/src/inkwell", ""]
    lines += [f" ✓ {f} ({n} tests) {3 + 2 * n}ms" for f, n in files]
    total = sum(n for _, n in files)
    lines += ["", f" Test Files  {len(files)} passed ({len(files)})", f"      Tests  {total} passed ({total})",
              "   Start at  10:02:11", f"   Duration  {ms}ms (transform 61ms, setup 0ms, collect 88ms, tests 14ms)"]
    return "\n".join(lines)


# -- flagd (Python) --------------------------------------------------------------------------------------

ROLLOUT_HASH_OLD = '''def bucket(flag_key: str, user_id: str) -> int:
    """A number in [0, BUCKETS) for this user and flag."""
    return hash(f"{flag_key}:{user_id}") % BUCKETS
'''
ROLLOUT_HASH_NEW = '''def bucket(flag_key: str, user_id: str) -> int:
    """A number in [0, BUCKETS) for this user and flag, the same in every process."""
    digest = hashlib.sha256(f"{flag_key}:{user_id}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % BUCKETS
'''


@scenario("bucket-hash", "flagd",
          "numbered options with a recommendation, picked with '2'; restated a week later when the mobile team "
          "asks for the algorithm and the agent floats murmur3 again",
          [exp("decision", "flagd/rollout.py:bucket", "sha256", ["md5", "murmur3"])])
def _bucket_hash(files):
    a = Session("bucket-hash-1", "2026-11-16T09:12:00.000Z", files)
    a.user("canary: same user flips between on and off for new-checkout depending on which pod answers. "
           "rollout.py")
    a.read("flagd/rollout.py")
    a.say("Found it. `bucket()` uses Python's built-in `hash()` on the string `\"{flag_key}:{user_id}\"`. Since "
          "Python 3.3 string hashing is randomised per process (`PYTHONHASHSEED`), so every pod — and every "
          "restart — computes a different bucket for the same user. At 30% rollout that's a coin flip per "
          "request.\n\nWe need a hash that's stable across processes and machines. Options:\n\n"
          "1. **md5** of `flag_key:user_id`, first 8 bytes as an int. Stdlib, fast. Not a security use, but "
          "security scanners will flag it and someone will ask.\n"
          "2. **sha256** of `flag_key:user_id`, first 8 bytes as an int. Stdlib, slower per call than md5 but "
          "we're talking microseconds; nobody raises an eyebrow at it.\n"
          "3. **murmur3** through the `mmh3` package. What several flag vendors use, fastest of the three, but "
          "it's a new C-extension dependency and every future SDK port has to find a matching murmur "
          "implementation.\n\nI'd go with 2.")
    a.user("2")
    a.edit("flagd/rollout.py", '"""Percentage rollouts: which users get a flag\'s non-default variant."""\n\n'
           'from __future__ import annotations\n',
           '"""Percentage rollouts: which users get a flag\'s non-default variant."""\n\n'
           'from __future__ import annotations\n\nimport hashlib\n')
    a.edit("flagd/rollout.py", ROLLOUT_HASH_OLD, ROLLOUT_HASH_NEW)
    a.bash("python -m pytest -q tests/test_rollout.py", "...                                                    "
           "                [100%]\n3 passed in 0.21s")
    a.bash("python -c \"from flagd.rollout import bucket; print({bucket('new-checkout', 'u-1841') for _ in range(3)})\""
           " && PYTHONHASHSEED=7 python -c \"from flagd.rollout import bucket; print(bucket('new-checkout', 'u-1841'))\"",
           "{6203}\n6203")
    a.say("Done: `bucket()` now takes the first 8 bytes of `sha256(\"{flag_key}:{user_id}\")` mod 10 000. Same "
          "bucket across processes and hash seeds (checked above with `PYTHONHASHSEED=7`).\n\nOne heads-up: "
          "because the old buckets were random per process anyway, nobody *loses* a stable assignment, but the "
          "set of users inside each rollout will be different after the deploy.")
    a.user("fine. ship it")

    b = Session("bucket-hash-2", "2026-11-24T14:40:00.000Z", files)
    b.user("mobile is writing a kotlin sdk that evaluates offline. they need the bucketing spelled out. also "
           "want a way to reshuffle a rollout without renaming the flag")
    b.read("flagd/rollout.py")
    b.read("flagd/definitions.py", offset=12, limit=10)
    b.say("**For the Kotlin SDK**, the exact algorithm today:\n\n```\ninput  = UTF-8 bytes of flag_key + \":\" + "
          "user_id\ndigest = SHA-256(input)\nbucket = unsigned big-endian int of digest[0..8) mod 10000\nin     = "
          "bucket < percent * 100\n```\n\n**For reshuffling**, I'd add an optional `salt` to the flag definition "
          "and hash `salt:flag_key:user_id` when it's set. Changing the salt gives a fresh random split without "
          "touching the key.\n\nSince we're touching it anyway: if mobile cares about battery we could switch to "
          "murmur3 now, before there are two SDKs to keep in sync. It's noticeably cheaper than SHA-256 on "
          "low-end phones.")
    b.user("no, stay on sha256. one digest on the server and every sdk, that's the point. salt ok, empty by "
           "default so nobody moves")
    b.edit("flagd/rollout.py", ROLLOUT_HASH_NEW,
           '''def bucket(flag_key: str, user_id: str, salt: str = "") -> int:
    """A number in [0, BUCKETS) for this user and flag, the same in every process and every SDK."""
    seed = f"{salt}:{flag_key}:{user_id}" if salt else f"{flag_key}:{user_id}"
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % BUCKETS
''')
    b.edit("flagd/rollout.py", '''def in_rollout(flag_key: str, user_id: str, percent: int) -> bool:
    if percent >= 100:
        return True
    if percent <= 0:
        return False
    return bucket(flag_key, user_id) < percent * BUCKETS // 100''',
           '''def in_rollout(flag_key: str, user_id: str, percent: int, salt: str = "") -> bool:
    if percent >= 100:
        return True
    if percent <= 0:
        return False
    return bucket(flag_key, user_id, salt) < percent * BUCKETS // 100''')
    b.edit("flagd/definitions.py", "    enabled: bool = True\n", "    enabled: bool = True\n    salt: str = \"\"\n")
    b.edit("flagd/definitions.py", "rules=list(raw.get(\"rules\", [])), enabled=bool(raw.get(\"enabled\", True)))",
           "rules=list(raw.get(\"rules\", [])), enabled=bool(raw.get(\"enabled\", True)),\n"
           "                salt=str(raw.get(\"salt\", \"\")))")
    b.edit("flagd/evaluator.py", "in_rollout(flag.key, user_id, flag.rollout)",
           "in_rollout(flag.key, user_id, flag.rollout, flag.salt)")
    b.bash("python -m pytest -q", ".....                                                                    "
           "[100%]\n5 passed in 0.24s")
    b.say("Added `salt` (default `\"\"`, which hashes exactly as before, so no existing assignment moves). "
          "Algorithm for the Kotlin folks is the block above, with `salt + \":\"` prepended to the input when "
          "the flag has a salt.")
    return [a, b]


@scenario("anon-users-default", "flagd",
          "the agent edits in a random draw for anonymous users; the person corrects it right after the edit "
          "with a rule ('no — … must always get the default'); the random draw is reverted",
          [exp("invariant", "flagd/evaluator.py:Evaluator.evaluate", "always get the default", ["random draw"])])
def _anon(files):
    s = Session("anon-users-default", "2026-11-18T16:05:00.000Z", files)
    s.user("logged-out users: either all of them get new-checkout or none do. flips when we change the %")
    s.read("flagd/evaluator.py")
    s.say("Right: `user_id = str(context.get(\"user_id\", \"\"))` turns every anonymous visitor into the same "
          "user `\"\"`, so they all share one bucket — at 30% they're all in or all out depending on where "
          "`\"new-checkout:\"` happens to land.\n\nI'll give anonymous contexts a random draw per evaluation, "
          "so roughly 30% of anonymous requests get the new variant.")
    s.edit("flagd/evaluator.py", "from __future__ import annotations\n\nfrom .definitions import Flag\n",
           "from __future__ import annotations\n\nimport random\n\nfrom .definitions import Flag\n")
    s.edit("flagd/evaluator.py", '''        user_id = str(context.get("user_id", ""))
        on = next((v for v in flag.variants if v != flag.default), flag.default)
        name = on if in_rollout(flag.key, user_id, flag.rollout) else flag.default''',
           '''        user_id = str(context.get("user_id", ""))
        on = next((v for v in flag.variants if v != flag.default), flag.default)
        if not user_id:
            name = on if random.random() * 100 < flag.rollout else flag.default
            return name, flag.variants[name]
        name = on if in_rollout(flag.key, user_id, flag.rollout) else flag.default''')
    s.user("no — anon must always get the default. random per request = the checkout page flips on every reload. "
           "no id, no rollout")
    s.say("Understood, taking the random draw out.")
    s.edit("flagd/evaluator.py", "from __future__ import annotations\n\nimport random\n\nfrom .definitions import Flag\n",
           "from __future__ import annotations\n\nfrom .definitions import Flag\n")
    s.edit("flagd/evaluator.py", '''        if not user_id:
            name = on if random.random() * 100 < flag.rollout else flag.default
            return name, flag.variants[name]
''', '''        if not user_id:  # no id, no rollout: the default, every time
            return flag.default, flag.variants[flag.default]
''')
    s.write("tests/test_evaluator.py", '''from flagd.definitions import load_flags
from flagd.evaluator import Evaluator

FLAGS = load_flags({"flags": {"new-checkout": {"variants": {"old": 1, "new": 2}, "default": "old", "rollout": 100}}})


def test_anonymous_gets_default_even_at_full_rollout():
    ev = Evaluator(FLAGS)
    assert ev.evaluate("new-checkout", {}) == ("old", 1)
    assert ev.evaluate("new-checkout", {"user_id": ""}) == ("old", 1)


def test_known_user_rolled_out():
    assert Evaluator(FLAGS).evaluate("new-checkout", {"user_id": "u-9"}) == ("new", 2)
''')
    s.bash("python -m pytest -q tests/test_evaluator.py", "..                                                  "
           "                     [100%]\n2 passed in 0.05s")
    s.say("Anonymous contexts (no `user_id` or an empty one) now always get the flag's default variant, even at "
          "100%. Targeting rules still run before this, so a rule on e.g. `country` can still send anonymous "
          "users somewhere explicitly.")
    s.user("good")
    return [s]


@scenario("targeting-order", "flagd",
          "options in prose ('we could … or …'), a question about other tools, a digression about a pytest "
          "warning, then 'first match then' three turns later",
          [exp("decision", "flagd/targeting.py:evaluate_rules", "first match", ["specificity", "last-match"])])
def _targeting(files):
    s = Session("targeting-order", "2026-11-19T10:31:00.000Z", files)
    s.user("targeting: two rules match → we take the LAST one? backwards surely")
    s.read("flagd/targeting.py")
    s.say("Yes — `evaluate_rules` collects every matching rule and returns `matched[-1][\"variant\"]`, so the "
          "bottom-most matching rule in the YAML wins. Whether that's backwards depends on what people expect "
          "when they write the file.\n\nWe could make it first-match-wins: the rules are an ordered list and the "
          "top one that matches decides, which is easy to explain (\"read from the top\") and lets us stop "
          "evaluating early. Or we could rank matching rules by specificity — the number of conditions — so "
          "`country=DE and plan=pro` beats plain `country=DE` wherever it sits in the file; nicer in theory, but "
          "two rules with the same number of conditions still need a tie-break, and people can't tell which rule "
          "wins by reading the file. Or we keep last-match and just document it, since some flag files may "
          "already rely on it.\n\nWhich way do you want it?")
    s.user("what do launchdarkly / unleash do")
    s.say("LaunchDarkly evaluates a flag's targeting rules top to bottom and serves the first rule that matches. "
          "Unleash is a bit different — strategies are OR'd, and variants are picked by weight, not by rule "
          "order — so it doesn't map cleanly onto our model. I'm fairly sure about LaunchDarkly; I'd double-check "
          "the Unleash detail before quoting it anywhere.")
    s.user("ok. unrelated, why does pytest spam a DeprecationWarning about utcnow")
    s.grep("utcnow", [])
    s.bash("python -m pytest -q -W error::DeprecationWarning tests/ 2>&1 | tail -6",
           "  File \"/srv/flagd/.venv/lib/python3.12/site-packages/freezegun/api.py\", line 21, in <module>\n"
           "    real_utcnow = datetime.datetime.utcnow\nDeprecationWarning: datetime.datetime.utcnow() is "
           "deprecated and scheduled for removal in a future version. Use timezone-aware objects to represent "
           "datetimes in UTC: datetime.datetime.now(datetime.UTC).\n1 error in 0.31s", fail=True)
    s.say("Not ours: nothing in `flagd/` calls `utcnow`. It comes from `freezegun` (a test dependency) at import "
          "time; newer freezegun releases fixed it, so bumping the pin in the dev requirements would silence it.")
    s.user("k whatever. first match then. ordered list, top one wins")
    s.edit("flagd/targeting.py", '''def evaluate_rules(rules: list[dict], context: dict) -> str | None:
    """The variant the rules send this context to, or None."""
    matched = [r for r in rules if match_rule(r, context)]
    if not matched:
        return None
    return matched[-1]["variant"]''', '''def evaluate_rules(rules: list[dict], context: dict) -> str | None:
    """The variant of the first rule (in file order) that matches this context, or None."""
    for rule in rules:
        if match_rule(rule, context):
            return rule["variant"]
    return None''')
    s.write("tests/test_targeting.py", '''from flagd.targeting import evaluate_rules

RULES = [
    {"when": [{"attr": "country", "op": "eq", "value": "DE"}], "variant": "a"},
    {"when": [{"attr": "country", "op": "eq", "value": "DE"}, {"attr": "plan", "op": "eq", "value": "pro"}],
     "variant": "b"},
]


def test_first_matching_rule_wins():
    assert evaluate_rules(RULES, {"country": "DE", "plan": "pro"}) == "a"


def test_no_match():
    assert evaluate_rules(RULES, {"country": "FR"}) is None
''')
    s.bash("python -m pytest -q tests/test_targeting.py", "..                                                  "
           "                     [100%]\n2 passed in 0.03s")
    s.say("Done. Rules are now evaluated top to bottom and the first match wins; evaluation stops there. Worth "
          "grepping the flag repo for flags with overlapping rules before this ships — any that relied on the "
          "old bottom-wins order will change behaviour.")
    return [s]


@scenario("audit-append-only", "flagd",
          "a non-native speaker states a rule up front; the agent's plan includes a purge method that the "
          "person turns down, restating the rule",
          [exp("invariant", "flagd/audit.py:AuditLog", "append only", ["purge"])])
def _audit(files):
    s = Session("audit-append-only", "2026-11-20T08:47:00.000Z", files)
    s.user("Hello, we need export of audit log for the compliance team, as json lines file, all entries of one "
           "flag or of all flags. Important thing: the audit log is append only. Nobody can change or delete "
           "entries, not the API and not the export. This is requirement from the auditors.")
    s.read("flagd/audit.py")
    s.read("flagd/http.py")
    s.say("Here's what I'd do:\n\n1. `AuditLog.export(out_path, flag_key=None)` — writes the matching entries as "
          "JSON lines.\n2. `AuditLog.load(path)` — today `entries` only lives in memory, so after a restart "
          "`for_flag` and the export would see nothing. Loading the file back on startup fixes that.\n3. "
          "`AuditLog.purge(older_than_days=365)` — the file grows forever; a retention knob keeps it bounded.\n"
          "4. `GET /audit?flag=<key>` in the HTTP handler, returning the entries as JSON.\n\nShall I go ahead "
          "with all four?")
    s.user("1, 2 and 4 yes. 3 no please, I said it — nothing gets deleted. If the file is big we do rotation "
           "of files later, not deleting.")
    s.edit("flagd/audit.py", '''class AuditLog:
    def __init__(self, path: str):
        self.path = path
        self.entries: list[AuditEntry] = []
''', '''class AuditLog:
    """Append-only: entries are added, never changed or removed."""

    def __init__(self, path: str):
        self.path = path
        self.entries: list[AuditEntry] = []

    @classmethod
    def load(cls, path: str) -> AuditLog:
        log = cls(path)
        try:
            with open(path, encoding="utf-8") as f:
                log.entries = [AuditEntry(**json.loads(line)) for line in f if line.strip()]
        except FileNotFoundError:
            pass
        return log
''')
    s.edit("flagd/audit.py", '''    def for_flag(self, flag_key: str) -> list[AuditEntry]:
        return [e for e in self.entries if e.flag_key == flag_key]
''', '''    def for_flag(self, flag_key: str) -> list[AuditEntry]:
        return [e for e in self.entries if e.flag_key == flag_key]

    def export(self, out_path: str, flag_key: str | None = None) -> int:
        entries = self.entries if flag_key is None else self.for_flag(flag_key)
        with open(out_path, "w", encoding="utf-8") as f:
            for e in entries:
                f.write(json.dumps(asdict(e)) + "\\n")
        return len(entries)
''')
    s.edit("flagd/http.py", '''        if method == "GET" and parts == ["flags"]:
            return 200, {"flags": sorted(self.evaluator.flags)}
''', '''        if method == "GET" and parts == ["flags"]:
            return 200, {"flags": sorted(self.evaluator.flags)}
        if method == "GET" and parts == ["audit"]:
            return self.audit_entries(query.get("flag"))
''')
    s.edit("flagd/http.py", '''    def handle(self, method: str, path: str, body: bytes, actor: str = "anonymous") -> tuple[int, dict]:
        parts = [p for p in path.split("/") if p]''', '''    def handle(self, method: str, path: str, body: bytes, actor: str = "anonymous") -> tuple[int, dict]:
        path, _, qs = path.partition("?")
        query = dict(parse_qsl(qs))
        parts = [p for p in path.split("/") if p]''')
    s.edit("flagd/http.py", "import json\n\nfrom .audit import AuditLog\n",
           "import json\nfrom dataclasses import asdict\nfrom urllib.parse import parse_qsl\n\nfrom .audit import AuditLog\n")
    s.edit("flagd/http.py", '''        return 200, {"flag": flag_key, "variant": name, "value": value}
''', '''        return 200, {"flag": flag_key, "variant": name, "value": value}

    def audit_entries(self, flag_key: str | None) -> tuple[int, dict]:
        entries = self.audit.entries if flag_key is None else self.audit.for_flag(flag_key)
        return 200, {"entries": [asdict(e) for e in entries]}
''')
    s.bash("python -m pytest -q && python -c \"from flagd.audit import AuditLog; l = AuditLog('/tmp/a.jsonl'); "
           "l.record('mira', 'create', 'x', None, {'variants': {'a': 1}}); print(AuditLog.load('/tmp/a.jsonl')"
           ".export('/tmp/out.jsonl'))\"", ".....                                                         "
           "           [100%]\n5 passed in 0.05s\n1")
    s.say("Done:\n\n- `AuditLog.load(path)` reads the existing file on startup.\n- `AuditLog.export(out_path, "
          "flag_key=None)` writes JSON lines (all flags, or one).\n- `GET /audit` and `GET /audit?flag=<key>` "
          "return the entries.\n\nNo purge, no update or delete anywhere; I also put \"append-only\" in the "
          "class docstring so the next person sees it.")
    s.user("Perfect, thank you!")
    return [s]


@scenario("sdk-cache-sync", "flagd",
          "a markdown table of four options with a recommendation (background thread); the person rejects it "
          "in two words and picks another letter",
          [exp("decision", "flagd/sdk/client.py:FlagClient.get", "keep it sync",
               ["background refresh", "asyncio", "stale-while-revalidate"])])
def _sdk(files):
    s = Session("sdk-cache-sync", "2026-11-21T13:20:00.000Z", files)
    s.user("sdk get() blocks on the network every 30s per key → checkout p99 spikes. ideas")
    s.read("flagd/sdk/client.py")
    s.say("The cache is a plain TTL: once an entry is older than `ttl`, the next `get()` does a blocking POST with "
          "a 2 s timeout, and if the service is slow that request eats it. Four ways out:\n\n"
          "| | How | Good | Bad |\n|---|---|---|---|\n"
          "| **A. Background refresh thread** | a daemon thread re-fetches every cached key each `ttl` | no request "
          "ever waits on the network | a thread in every process; interacts badly with gunicorn `--preload` forks |\n"
          "| **B. asyncio client** | `async def get()` with `httpx` | non-blocking | every caller is a sync Django "
          "view today; new dependency |\n"
          "| **C. stale-while-revalidate** | serve the stale value, refresh one key inline per call | bounded "
          "work per call | one unlucky request still pays |\n"
          "| **D. Short timeout + stale on error** | keep it synchronous, timeout 2 s → 250 ms, on failure return "
          "the last known value instead of `default` | tiny change | still one blocking call per key per `ttl` |\n\n"
          "**Recommendation:** A — it removes the network from the request path entirely.")
    s.user("nope. keep it sync. D")
    s.edit("flagd/sdk/client.py", "    def __init__(self, base_url: str, ttl: float = 30.0, timeout: float = 2.0):",
           "    def __init__(self, base_url: str, ttl: float = 30.0, timeout: float = 0.25):")
    s.edit("flagd/sdk/client.py", '''        try:
            value = self._fetch(flag_key, context)
        except OSError:
            return default''', '''        try:
            value = self._fetch(flag_key, context)
        except OSError:
            # the last known value beats the default: a flaky service must not flip users back
            return hit[1] if hit else default''')
    s.bash("python -m pytest -q", ".....                                                                    "
           "[100%]\n5 passed in 0.06s")
    s.say("Done — still synchronous:\n\n- default timeout 250 ms instead of 2 s\n- when the refresh fails "
          "(timeout, connection refused) `get()` returns the last value it had for that key, and only falls back "
          "to `default` if it never had one.\n\nThe stale value isn't re-stamped, so the next call retries the "
          "fetch.")
    return [s]


@scenario("yaml-on-off", "flagd",
          "a pasted traceback, the cause found with a one-liner (YAML 1.1 booleans), a fix in parse_flag, a "
          "failing test on the way",
          [exp("gotcha", "flagd/definitions.py:_variant_name", "yaml 1.1")])
def _yaml(files):
    s = Session("yaml-on-off", "2026-11-23T11:02:00.000Z", files)
    s.user('''deploy of flags.yaml failed:

```
$ flagd serve --flags /etc/flagd/flags.yaml
Traceback (most recent call last):
  File "/srv/flagd/.venv/bin/flagd", line 8, in <module>
    sys.exit(main())
  File "/srv/flagd/flagd/cli.py", line 43, in main
    flags = load_flags(yaml.safe_load(f))
  File "/srv/flagd/flagd/definitions.py", line 39, in load_flags
    flags[key] = parse_flag(key, raw)
  File "/srv/flagd/flagd/definitions.py", line 28, in parse_flag
    raise DefinitionError(f"{key}: default {default!r} is not a variant")
flagd.definitions.DefinitionError: dark-mode: default 'off' is not a variant
```

variants are literally on/off and default is off. wtf''')
    s.read("flagd/definitions.py")
    s.bash("python -c \"import yaml; print(yaml.safe_load(open('/etc/flagd/flags.yaml'))['flags']['dark-mode'])\"",
           "{'variants': {False: False, True: True}, 'default': 'off', 'rollout': 20}")
    s.say("There it is: the variant **names** came back as `False` and `True`. PyYAML implements YAML 1.1, where "
          "a bare `on`/`off` (and `yes`/`no`) is a boolean — in keys as well as values. `default: \"off\"` is "
          "quoted in your file so it stays a string, and `'off' in {False: ..., True: ...}` is false.\n\n"
          "I'll make `parse_flag` turn boolean variant names back into `\"on\"`/`\"off\"` — that's the only way "
          "a boolean key gets there from our files — and add a test with exactly this shape.")
    s.edit("flagd/definitions.py", '''    variants = dict(raw["variants"])
''', '''    # YAML 1.1 (PyYAML) reads a bare on/off key as a boolean: make variant names strings again
    variants = {str(k).lower(): v for k, v in raw["variants"].items()}
''')
    s.edit("tests/test_definitions.py", '''def test_bad_default():''', '''def test_on_off_variants_read_as_booleans():
    flags = load_flags({"flags": {"dark-mode": {"variants": {False: False, True: True}, "default": "off"}}})
    assert set(flags["dark-mode"].variants) == {"on", "off"}


def test_bad_default():''')
    s.bash("python -m pytest -q tests/test_definitions.py", '''.F.                                                                      [100%]
=================================== FAILURES ===================================
___________________ test_on_off_variants_read_as_booleans ____________________

    def test_on_off_variants_read_as_booleans():
>       flags = load_flags({"flags": {"dark-mode": {"variants": {False: False, True: True}, "default": "off"}}})

tests/test_definitions.py:13:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
flagd/definitions.py:40: in load_flags
    flags[key] = parse_flag(key, raw)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

    def parse_flag(key: str, raw: dict) -> Flag:
        if "variants" not in raw:
            raise DefinitionError(f"{key}: no variants")
        # YAML 1.1 (PyYAML) reads a bare on/off key as a boolean: make variant names strings again
        variants = {str(k).lower(): v for k, v in raw["variants"].items()}
        default = raw.get("default", next(iter(variants)))
        if default not in variants:
>           raise DefinitionError(f"{key}: default {default!r} is not a variant")
E           flagd.definitions.DefinitionError: dark-mode: default 'off' is not a variant

flagd/definitions.py:29: DefinitionError
=========================== short test summary info ============================
FAILED tests/test_definitions.py::test_on_off_variants_read_as_booleans - flagd.definitions.DefinitionError: dark-mode: default 'off' is not a variant
1 failed, 2 passed in 0.06s''', fail=True)
    s.say("Same error, my mistake: `str(False).lower()` is `'false'`, not `'off'`. By the time we see the key the original spelling is gone — it "
          "could have been `off`, `no` or `false` in the file. In our flag files a boolean variant name only ever "
          "comes from `on`/`off`, so I'll map the booleans back to those explicitly and stringify anything else.")
    s.edit("flagd/definitions.py", '''    # YAML 1.1 (PyYAML) reads a bare on/off key as a boolean: make variant names strings again
    variants = {str(k).lower(): v for k, v in raw["variants"].items()}
''', '''    variants = {_variant_name(k): v for k, v in raw["variants"].items()}
''')
    s.edit("flagd/definitions.py", '''def parse_flag(key: str, raw: dict) -> Flag:''', '''def _variant_name(name: object) -> str:
    # YAML 1.1 (PyYAML) reads a bare on/off key as True/False: give the variant its name back
    if isinstance(name, bool):
        return "on" if name else "off"
    return str(name)


def parse_flag(key: str, raw: dict) -> Flag:''')
    s.bash("python -m pytest -q tests/test_definitions.py", "...                                          "
           "                            [100%]\n3 passed in 0.04s")
    s.say("Fixed. `parse_flag` maps boolean variant names back to `\"on\"`/`\"off\"` and stringifies anything "
          "else (a bare `1:` key would otherwise be an int too). Your flags.yaml loads as written.")
    s.user("ty")
    return [s]


@scenario("explain-evaluation", "flagd",
          "a question answered with a long explanation full of 'must'/'never', then a hypothetical (per-org "
          "rollouts) the person drops: nothing to keep",
          [])
def _explain(files):
    s = Session("explain-evaluation", "2026-11-12T15:45:00.000Z", files)
    s.user("walk me through how a flag gets its value. haven't touched this repo in a year")
    s.read("flagd/evaluator.py")
    s.read("flagd/targeting.py")
    s.read("flagd/rollout.py")
    s.say("## How `Evaluator.evaluate(flag_key, context)` decides\n\n1. **Lookup.** Unknown key → `UnknownFlag` "
          "(the HTTP layer turns it into a 404). The flag must exist in the loaded definitions; there's no "
          "implicit default for missing flags on the server side.\n2. **Kill switch.** `enabled: false` → the "
          "default variant, always. Nothing below runs.\n3. **Targeting rules.** `evaluate_rules` checks each "
          "rule's `when` conditions (all of them must match — they're AND'd) against the context attributes. A "
          "matching rule names a variant directly.\n4. **Percentage rollout.** Otherwise the user's bucket "
          "(`bucket(flag_key, user_id)`, 0–9999) is compared with `rollout * 100`. Inside → the first "
          "non-default variant; outside → the default.\n\n### Things worth knowing\n\n- The bucket should never "
          "depend on anything but the flag key and the user id, otherwise a user's assignment changes under "
          "them.\n- Only two variants really take part in a rollout: the default and the *first* other one. A "
          "third variant is reachable only through a rule.\n- Operators are a fixed table (`eq`, `in`, "
          "`ends_with`, `gte`); an unknown `op` raises `KeyError` at evaluation time, not at load time.")
    s.user("and per-org rollouts, like all of acme gets it together?")
    s.say("You'd hash on `org_id` instead of `user_id` for that flag — e.g. a `bucket_by: org_id` field in the "
          "definition, and `evaluate` would read that attribute from the context. Everyone in an org would then "
          "share a bucket. We'd have to decide what happens for contexts without an `org_id` (probably the "
          "default variant). It's maybe 15 lines plus tests if you want it.")
    s.user("not now, just curious. thx")
    return [s]


@scenario("review-http", "flagd",
          "a code review with must/should suggestions, a colleague's opinion reported second-hand and "
          "explicitly not adopted, nothing changed: nothing to keep",
          [])
def _review(files):
    s = Session("review-http", "2026-11-13T17:10:00.000Z", files)
    s.user("review http.py pls. tomasz adds endpoints next week, want it not embarrassing first")
    s.read("flagd/http.py")
    s.say("**Review of `flagd/http.py`**\n\n**Must fix**\n- `json.loads(body)` in `handle` raises on a malformed "
          "body, and nothing catches it → the server answers 500 for what is a client error. It should be a 400 "
          "with the parse error.\n- `put_flag` stores `before.__dict__` in the audit entry: that's the live "
          "`Flag` object's dict, so if anything mutates the flag later the audit record changes with it. Copy it "
          "(`dataclasses.asdict(before)`).\n\n**Should**\n- Routing by `parts[:1] == [...]` and length checks "
          "will get messy with more endpoints; a small `(method, pattern) → handler` table would read better.\n"
          "- A wrong method on a known path returns 404; 405 with an `Allow` header is more correct.\n\n"
          "**Nits**\n- `actor` defaults to `\"anonymous\"`, which will end up in the audit log if a caller "
          "forgets to pass it. Making it required would surface that.\n\nWant me to do the must-fix items?")
    s.user("tomasz thinks we should never send a body with a 204, dunno if that's an actual rule anywhere. "
           "anyway dont change anything now, I'll hand him the list")
    s.say("OK — nothing changed. The list above is ready to paste into the ticket.")
    return [s]


# -- inkwell (TypeScript) --------------------------------------------------------------------------------


@scenario("slug-diacritics", "inkwell",
          "a markdown table of three options with a recommendation (keep unicode); the person picks another "
          "letter with a short reason ('fine, B … ascii urls')",
          [exp("decision", "src/slug.ts:slugify", "ascii urls", ["transliterate", "keep unicode"])])
def _slug(files):
    s = Session("slug-diacritics", "2026-11-16T19:22:00.000Z", files)
    s.user("slugify eats every non-ascii char. 'Über Café-Kultur' → 'ber-caf-kultur'. fix")
    s.read("src/slug.ts")
    s.say("`slugify` lowercases and then replaces everything outside `[a-z0-9]` with a dash, so `Ü` and `é` "
          "simply vanish. There are three reasonable behaviours:\n\n"
          "| Option | `Über Café-Kultur` | `東京の夜` | Notes |\n|---|---|---|---|\n"
          "| **A. Transliterate** (German rules: ü→ue, ß→ss, é→e …) | `ueber-cafe-kultur` | `` (empty) | needs a "
          "char map we maintain; right for German, wrong for Turkish `ü` |\n"
          "| **B. Strip diacritics** (`normalize(\"NFKD\")`, drop combining marks) | `uber-cafe-kultur` | `` "
          "(empty) | three lines, no table; `ß` still needs one special case |\n"
          "| **C. Keep unicode letters** (`\\p{L}\\p{N}` kept) | `über-café-kultur` | `東京の夜` | works for any "
          "script; URLs get percent-encoded in links and some tools show them ugly |\n\n"
          "I'd lean **C**: it's the only one where a title in a non-Latin script doesn't end up with an empty "
          "slug.")
    s.user("fine, B. it's an english/german blog, no cjk ever. ascii urls")
    s.edit("src/slug.ts", '''export function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}''', '''export function slugify(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/\\p{M}+/gu, "")
    .replace(/ß/g, "ss")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}''')
    s.edit("test/slug.test.ts", '''  it("trims dashes", () => {
    expect(slugify("  -- Notes --  ")).toBe("notes");
  });''', '''  it("trims dashes", () => {
    expect(slugify("  -- Notes --  ")).toBe("notes");
  });
  it("strips diacritics", () => {
    expect(slugify("Über Café-Kultur")).toBe("uber-cafe-kultur");
    expect(slugify("Straße")).toBe("strasse");
  });''')
    s.bash("npx vitest run test/slug.test.ts", vitest_ok([("test/slug.test.ts", 4)]))
    s.say("Done: `slugify` now decomposes (NFKD), drops the combining marks, maps `ß` to `ss`, then does what it "
          "did before. `Über Café-Kultur` → `uber-cafe-kultur`.\n\nExisting posts whose titles had accents will "
          "get a new slug (`ber-caf-kultur` → `uber-cafe-kultur`); if any are already published you may want a "
          "`slug:` in their front matter to keep the old URL.")
    s.user("there's 2. ill pin them")
    return [s]


@scenario("date-calendar-days", "inkwell",
          "a numbered choice ('1') applied, then reverted in the same session for option 2 with a reason; only "
          "the final choice is expected",
          [exp("decision", "src/dates.ts:formatDisplayDate", "utc midnight", ["local midnight", "timezone setting"])])
def _dates(files):
    s = Session("date-calendar-days", "2026-11-18T21:03:00.000Z", files)
    s.user("post dated 2024-03-05 says 4 March on the live site. locally it's fine (berlin)")
    s.read("src/dates.ts")
    s.bash("grep -n runs-on -A3 .github/workflows/deploy.yml", "7:    runs-on: ubuntu-latest\n8:    env:\n"
           "9:      TZ: America/New_York\n10:      NODE_ENV: production")
    s.say("Two things combine:\n\n- `new Date(\"2024-03-05\")` — a date-only ISO string — is parsed as **UTC "
          "midnight** (that's the spec, unlike `\"2024-03-05T00:00\"`, which is local).\n- "
          "`formatDisplayDate` calls `toLocaleDateString` without a `timeZone`, so it formats in the zone of "
          "the machine running the build. The deploy job sets `TZ: America/New_York`; UTC midnight is 19:00 the "
          "day before there.\n\nOptions:\n1. Parse date-only values as **local midnight** (`new Date(y, m - 1, "
          "d)`), so the day is right in whatever zone builds it.\n2. Keep them as UTC midnight and format "
          "**in UTC** (`timeZone: \"UTC\"`) everywhere.\n3. Add a timezone setting to the site config "
          "(`timezone: Europe/Berlin`) and format in that zone.")
    s.user("1")
    s.edit("src/dates.ts", '''export function parsePostDate(value: string, file: string): Date {
  const d = new Date(value);''', '''export function parsePostDate(value: string, file: string): Date {
  const ymd = /^(\\d{4})-(\\d{2})-(\\d{2})$/.exec(value.trim());
  const d = ymd ? new Date(Number(ymd[1]), Number(ymd[2]) - 1, Number(ymd[3])) : new Date(value);''')
    s.bash("npx tsc -p . && TZ=America/New_York node -e \"import('./dist/dates.js').then(m => "
           "console.log(m.formatDisplayDate(m.parsePostDate('2024-03-05', 'x')), m.rfc822(m.parsePostDate("
           "'2024-03-05', 'x'))))\"", "5 March 2024 Tue, 05 Mar 2024 05:00:00 GMT")
    s.say("Display is right now (`5 March 2024` under New York time). Note the RSS `pubDate` is now 05:00 GMT, "
          "because local midnight in New York is 05:00 UTC — and it would be a different instant again if the "
          "build ran somewhere else.")
    s.user("hm, so the feed changes depending on where it's built. no. revert that, do 2. dates in front matter "
           "are calendar days: keep them as utc midnight and format everything in utc")
    s.edit("src/dates.ts", '''  const ymd = /^(\\d{4})-(\\d{2})-(\\d{2})$/.exec(value.trim());
  const d = ymd ? new Date(Number(ymd[1]), Number(ymd[2]) - 1, Number(ymd[3])) : new Date(value);''',
           '''  const d = new Date(value);''')
    s.edit("src/dates.ts", '''export function formatDisplayDate(d: Date): string {
  return d.toLocaleDateString("en-GB", { year: "numeric", month: "long", day: "numeric" });
}''', '''export function formatDisplayDate(d: Date): string {
  // front matter dates are calendar days stored as UTC midnight: format in UTC, whatever TZ the build has
  return d.toLocaleDateString("en-GB", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}''')
    s.bash("npx tsc -p . && for tz in America/New_York Europe/Berlin Asia/Tokyo; do TZ=$tz node -e \"import("
           "'./dist/dates.js').then(m => { const d = m.parsePostDate('2024-03-05', 'x'); "
           "console.log(m.formatDisplayDate(d), '|', m.rfc822(d)) })\"; done",
           "5 March 2024 | Tue, 05 Mar 2024 00:00:00 GMT\n5 March 2024 | Tue, 05 Mar 2024 00:00:00 GMT\n"
           "5 March 2024 | Tue, 05 Mar 2024 00:00:00 GMT")
    s.say("Reverted the local-midnight parsing; `parsePostDate` is back to `new Date(value)` (UTC midnight for "
          "date-only values), and `formatDisplayDate` now formats with `timeZone: \"UTC\"`. Same page date and "
          "same `pubDate` in all three zones above.")
    return [s]


@scenario("rss-guid-frozen", "inkwell",
          "options in prose; the person answers with a rule ('guid never changes after publish'); restated in a "
          "later session about slug aliases, where the agent adds a comment to the same function",
          [exp("invariant", "src/rss.ts:feedItem", "never change", ["hash of the source path"])])
def _guid(files):
    a = Session("rss-guid-frozen-1", "2026-11-19T20:15:00.000Z", files)
    a.user("feed has no <guid>. readers dedupe on link, so every time I fix a slug typo the post shows up as new "
           "for everyone. add guid")
    a.read("src/rss.ts")
    a.read("src/types.ts")
    a.say("Right, `feedItem` only emits `<link>`, and readers fall back to it as the identity.\n\nThe obvious "
          "guid is the permalink itself (`<guid isPermaLink=\"true\">`), but that's the same value as the link, "
          "so a slug fix would still re-announce the post. To survive renames the guid has to come from "
          "something that doesn't move with the slug: either an explicit `id:` in the front matter, written once "
          "when the post is first published, or a hash of the source path — no typing needed, but renaming the "
          "markdown file would change it just the same.\n\nI'd do the front matter `id`, falling back to the "
          "current URL for posts that don't have one.")
    a.user("yes front matter id. a guid never changes after publish, not when the slug changes, not when the "
           "file moves. old posts: their current url, as you said")
    a.edit("src/types.ts", '''export interface Post {
  title: string;''', '''export interface Post {
  /** front matter `id`: the feed guid, fixed at first publish */
  id?: string;
  title: string;''')
    a.edit("src/build.ts", '''    posts.push({
      title,''', '''    posts.push({
      id: typeof data.id === "string" ? data.id : undefined,
      title,''')
    a.edit("src/rss.ts", '''    `<link>${url}</link>`,
''', '''    `<link>${url}</link>`,
    post.id
      ? `<guid isPermaLink="false">${escapeXml(post.id)}</guid>`
      : `<guid isPermaLink="true">${url}</guid>`,
''')
    a.bash("npx tsc -p . --noEmit && npx vitest run", vitest_ok([("test/slug.test.ts", 3)]))
    a.say("Added:\n- `Post.id` from the front matter `id:`\n- `<guid isPermaLink=\"false\">` with that id, or "
          "the permalink as `isPermaLink=\"true\"` for posts without one.\n\nFor new posts you'll want an `id:` "
          "in the template — a date plus a short random suffix (`2026-11-19-k3x9`) works fine.")
    a.user("ok")

    b = Session("rss-guid-frozen-2", "2026-11-27T09:40:00.000Z", files)
    b.user("renaming slugs: add `aliases: [old-slug]` to front matter → write a tiny redirect page at each old "
           "url. and the guid thing still stands — guids never change, whatever happens to the slug")
    b.read("src/build.ts")
    b.read("src/rss.ts", offset=12, limit=16)
    b.edit("src/types.ts", '''  tags: string[];
  draft: boolean;''', '''  tags: string[];
  aliases: string[];
  draft: boolean;''')
    b.edit("src/build.ts", '''      tags: Array.isArray(data.tags) ? data.tags : [],
''', '''      tags: Array.isArray(data.tags) ? data.tags : [],
      aliases: Array.isArray(data.aliases) ? data.aliases : [],
''')
    b.edit("src/build.ts", '''    await fs.writeFile(path.join(site.outDir, rel), html);
  }''', '''    await fs.writeFile(path.join(site.outDir, rel), html);
    for (const alias of post.aliases) {
      const target = `/posts/${post.slug}/`;
      await fs.mkdir(path.join(site.outDir, "posts", alias), { recursive: true });
      await fs.writeFile(path.join(site.outDir, "posts", alias, "index.html"),
        `<!doctype html><meta http-equiv="refresh" content="0; url=${target}"><link rel="canonical" href="${target}">`);
      pages.set(`/posts/${alias}/index.html`, `<a href="${target}"></a>`);
    }
  }''')
    b.edit("src/rss.ts", '''export function feedItem(site: SiteConfig, post: Post): string {
  const url = postUrl(site, post);''', '''export function feedItem(site: SiteConfig, post: Post): string {
  // the guid never changes after publish: not on a slug rename, not through aliases (readers dedupe on it)
  const url = postUrl(site, post);''')
    b.bash("npx tsc -p . --noEmit && npx vitest run", vitest_ok([("test/slug.test.ts", 3)]))
    b.say("Aliases: each `aliases:` entry gets `/posts/<alias>/index.html` with a meta refresh and a canonical "
          "link to the current URL; the alias pages are registered with the link checker so links to old URLs "
          "don't count as broken.\n\nThe feed is untouched — `feedItem` still takes the guid from `id` (or the "
          "URL for old posts), and I put the rule in a comment at the top of it. One caveat: an *old* post "
          "without an `id` whose slug you rename will get a new guid, since its guid is its URL. Give those an "
          "`id:` equal to their old URL before renaming.")
    b.user("good catch. will do")
    return [a, b]


@scenario("atomic-asset-copy", "inkwell",
          "the agent writes and explains a deliberate workaround (temp file beside the target, then rename; "
          "not in os.tmpdir because of EXDEV across Docker mounts)",
          [exp("workaround", "src/assets.ts:copyAsset", "then rename")])
def _assets(files):
    s = Session("atomic-asset-copy", "2026-11-20T12:30:00.000Z", files)
    s.user("`inkwell serve` sometimes serves half a css file while a rebuild runs and the browser caches the "
           "broken one. copyAsset")
    s.read("src/assets.ts")
    s.say("`copyAsset` copies straight onto the destination, so for a few milliseconds `dist/css/site.css` is a "
          "truncated file and the dev server can read it in that window.\n\nThe fix is to never have a partial "
          "file at the final path: copy to a temp file beside the target, then rename it over the target. A "
          "rename within one filesystem is atomic, so a reader sees either the old file or the new one.\n\n"
          "The temp file deliberately lives in the *same directory* as the target, not in `os.tmpdir()`: in the "
          "Docker dev setup `/tmp` and `/app/dist` are different mounts, and `rename` across filesystems fails "
          "with `EXDEV`.")
    s.edit("src/assets.ts", '''export async function copyAsset(src: string, dest: string): Promise<void> {
  await fs.mkdir(path.dirname(dest), { recursive: true });
  await fs.copyFile(src, dest);
}''', '''export async function copyAsset(src: string, dest: string): Promise<void> {
  await fs.mkdir(path.dirname(dest), { recursive: true });
  // copy beside the target, then rename: readers (inkwell serve) never see a half-written file.
  // Not os.tmpdir(): across mounts (Docker) rename fails with EXDEV.
  const tmp = `${dest}.${process.pid}.tmp`;
  try {
    await fs.copyFile(src, tmp);
    await fs.rename(tmp, dest);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}''')
    s.bash("npx tsc -p . && node dist/cli.js build --out /tmp/ink-out && ls /tmp/ink-out/css",
           "built 14 pages, 0 broken links\nprint.css\nsite.css")
    s.say("Done. No `.tmp` files left behind in `dist/` (the `catch` removes the temp file if the copy or rename "
          "fails).")
    s.user("k")
    return [s]


@scenario("links-percent-encoded", "inkwell",
          "pasted build output with false broken links → cause (percent-encoded hrefs) → fix, then a URIError "
          "from the fix's test → guard",
          [exp("gotcha", "src/links.ts:internalTarget", "percent-encoded")])
def _links(files):
    s = Session("links-percent-encoded", "2026-11-24T18:55:00.000Z", files)
    s.user('''```
$ npx inkwell build
broken link on /posts/lisbon-in-three-days/index.html: /img/lisbon%20tram.jpg
broken link on /posts/lisbon-in-three-days/index.html: /img/alfama%20at%20night.jpg
built 15 pages, 2 broken links
```
both files are in assets/img. with teh space''')
    s.read("src/links.ts")
    s.say("The hrefs in the HTML are percent-encoded — marked writes `lisbon%20tram.jpg` for the space — while "
          "`copyAssets` registers the decoded file name `/img/lisbon tram.jpg`. `internalTarget` compares them "
          "as raw strings, so they never match. Decoding the target before the lookup fixes it.")
    s.edit("src/links.ts", '''  let target = href.split("#")[0].split("?")[0];
  if (target.endsWith("/")) target += "index.html";
  return target;''', '''  let target = decodeURIComponent(href.split("#")[0].split("?")[0]);
  if (target.endsWith("/")) target += "index.html";
  return target;''')
    s.write("test/links.test.ts", '''import { describe, expect, it } from "vitest";
import { checkLinks, internalTarget } from "../src/links.js";

describe("internalTarget", () => {
  it("decodes percent-encoding", () => {
    expect(internalTarget("/img/lisbon%20tram.jpg")).toBe("/img/lisbon tram.jpg");
  });
  it("keeps a literal percent sign", () => {
    expect(internalTarget("/posts/100%-done/")).toBe("/posts/100%-done/index.html");
  });
  it("ignores external links", () => {
    expect(internalTarget("https://example.com/x")).toBeNull();
  });
});

describe("checkLinks", () => {
  it("finds an encoded asset", () => {
    const pages = new Map([["/a/index.html", '<img src="/img/lisbon%20tram.jpg">']]);
    expect(checkLinks(pages, new Set(["/img/lisbon tram.jpg"]))).toEqual([]);
  });
});
''')
    s.bash("npx vitest run test/links.test.ts", ''' RUN  v1.4.0 /home/jo/src/inkwell

 ❯ test/links.test.ts (4 tests | 1 failed) 9ms
   ❯ internalTarget > keeps a literal percent sign

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/links.test.ts > internalTarget > keeps a literal percent sign
URIError: URI malformed
 ❯ internalTarget src/links.ts:10:16
      9|   if (/^[a-z]+:/i.test(href) || href.startsWith("//") || href.startsWith("#")) return null;
     10|   let target = decodeURIComponent(href.split("#")[0].split("?")[0]);
       |                ^
     11|   if (target.endsWith("/")) target += "index.html";
 ❯ test/links.test.ts:9:12

 Test Files  1 failed (1)
      Tests  1 failed | 3 passed (4)''', fail=True)
    s.say("As feared: a literal `%` that isn't a valid escape (`100%-done`) makes `decodeURIComponent` throw, "
          "and that would crash the whole build over one odd link. Such an href can't be decoded, so it is "
          "compared as written.")
    s.edit("src/links.ts", '''  let target = decodeURIComponent(href.split("#")[0].split("?")[0]);''',
           '''  let target = href.split("#")[0].split("?")[0];
  try {
    // hrefs are percent-encoded (marked writes %20 for a space); asset paths are not
    target = decodeURIComponent(target);
  } catch {
    // a bare "%" is not an escape: compare the href as written
  }''')
    s.bash("npx vitest run", vitest_ok([("test/links.test.ts", 4), ("test/slug.test.ts", 3)]))
    s.bash("npx tsc -p . && node dist/cli.js build", "built 15 pages, 0 broken links")
    s.say("Fixed: targets are decoded before the lookup, and an href with a stray `%` is compared as written "
          "instead of crashing the build. 0 broken links now.")
    return [s]


@scenario("frontmatter-lists", "inkwell",
          "an over-eager plan (swap in js-yaml, add TOML and JSON front matter) turned down in one line that "
          "carries a decision (no dependency) and a scope limit (yaml only)",
          [exp("decision", "src/frontmatter.ts:parseFrontMatter", "no deps", ["js-yaml"]),
           exp("boundary", "src/frontmatter.ts:parseFrontMatter", "only write yaml", ["toml", "json front matter"])])
def _frontmatter(files):
    s = Session("frontmatter-lists", "2026-11-25T22:10:00.000Z", files)
    s.user("front matter: block lists don't parse\n\ntags:\n  - travel\n  - portugal\n\n→ tags is \"\" and then "
           "it throws on '  - travel'. fix")
    s.read("src/frontmatter.ts")
    s.say("The parser is line-based: `tags:` gets an empty value, and `  - travel` has no colon, so it throws "
          "`expected \"key: value\"`.\n\n**Proposal.** Rather than growing the hand-rolled parser one YAML "
          "feature at a time, I'd:\n\n1. replace it with `js-yaml` (`load(frontMatterText)`) — block lists, "
          "nested maps, multi-line strings, quoting rules all handled;\n2. while we're there, accept Hugo-style "
          "TOML front matter between `+++` fences (via `smol-toml`) and JSON front matter starting with `{`, so "
          "posts imported from other generators just work;\n3. keep `FrontMatterError` with file and line for "
          "errors from either parser.\n\nIt's two small dependencies and removes most of this file. Go ahead?")
    s.user("no. no deps for this, just make dash lists work. toml/json stay out — we only write yaml here")
    s.edit("src/frontmatter.ts", '''  const data: FrontMatter["data"] = {};
  text.slice(4, end).split("\\n").forEach((line, i) => {
    if (!line.trim()) return;
    const colon = line.indexOf(":");''', '''  const data: FrontMatter["data"] = {};
  let listKey: string | null = null; // the key of a block list being read ("tags:" then "  - a")
  text.slice(4, end).split("\\n").forEach((line, i) => {
    if (!line.trim()) return;
    const item = /^\\s+-\\s+(.*)$/.exec(line);
    if (item && listKey !== null) {
      (data[listKey] as string[]).push(String(parseValue(item[1])));
      return;
    }
    listKey = null;
    if (/^[^:]+:\\s*$/.test(line)) {
      listKey = line.slice(0, line.indexOf(":")).trim();
      data[listKey] = [];
      return;
    }
    const colon = line.indexOf(":");''')
    s.write("test/frontmatter.test.ts", '''import { describe, expect, it } from "vitest";
import { parseFrontMatter } from "../src/frontmatter.js";

describe("parseFrontMatter", () => {
  it("reads block lists", () => {
    const { data } = parseFrontMatter("---\\ntitle: Lisbon\\ntags:\\n  - travel\\n  - portugal\\ndraft: false\\n---\\nHi", "a.md");
    expect(data).toEqual({ title: "Lisbon", tags: ["travel", "portugal"], draft: false });
  });
  it("reads inline lists", () => {
    expect(parseFrontMatter("---\\ntags: [a, b]\\n---\\n", "b.md").data.tags).toEqual(["a", "b"]);
  });
});
''')
    s.bash("npx vitest run", vitest_ok([("test/frontmatter.test.ts", 2), ("test/slug.test.ts", 3)]))
    s.say("Block lists work now (`key:` on its own line followed by `  - item` lines); inline `[a, b]` lists "
          "still work. No new dependencies, and still only `---` YAML front matter.\n\nOne behaviour to know: a "
          "key with an empty value (`subtitle:`) now becomes an empty list rather than an empty string.")
    s.user("fine")
    return [s]


@scenario("extract-load-post", "inkwell",
          "a process instruction ('run the tests first'), a pure extract-function refactor, an agent's "
          "hypothetical about i18n nobody takes up: nothing to keep",
          [])
def _refactor(files):
    s = Session("extract-load-post", "2026-11-13T10:05:00.000Z", files)
    s.user("loadPosts is doing too much. pull the per-file stuff into its own fn. run the tests first so we "
           "have a baseline")
    s.bash("npx vitest run", vitest_ok([("test/slug.test.ts", 3)]))
    s.read("src/build.ts", offset=1, limit=32)
    s.edit("src/build.ts", '''export async function loadPosts(site: SiteConfig): Promise<Post[]> {
  const taken = new Set<string>();
  const posts: Post[] = [];
  for (const name of (await fs.readdir(site.contentDir)).filter((n) => n.endsWith(".md")).sort()) {
    const sourcePath = path.join(site.contentDir, name);
    const { data, body } = parseFrontMatter(await fs.readFile(sourcePath, "utf8"), sourcePath);
    const title = String(data.title ?? name.replace(/\\.md$/, ""));
    posts.push({
      title,
      slug: uniqueSlug(typeof data.slug === "string" ? data.slug : slugify(title), taken),
      date: parsePostDate(String(data.date), sourcePath),
      tags: Array.isArray(data.tags) ? data.tags : [],
      draft: data.draft === true,
      html: await marked.parse(body),
      sourcePath,
    });
  }
  return posts;
}''', '''export async function loadPost(site: SiteConfig, name: string, taken: Set<string>): Promise<Post> {
  const sourcePath = path.join(site.contentDir, name);
  const { data, body } = parseFrontMatter(await fs.readFile(sourcePath, "utf8"), sourcePath);
  const title = String(data.title ?? name.replace(/\\.md$/, ""));
  return {
    title,
    slug: uniqueSlug(typeof data.slug === "string" ? data.slug : slugify(title), taken),
    date: parsePostDate(String(data.date), sourcePath),
    tags: Array.isArray(data.tags) ? data.tags : [],
    draft: data.draft === true,
    html: await marked.parse(body),
    sourcePath,
  };
}

export async function loadPosts(site: SiteConfig): Promise<Post[]> {
  const taken = new Set<string>();
  const posts: Post[] = [];
  for (const name of (await fs.readdir(site.contentDir)).filter((n) => n.endsWith(".md")).sort()) {
    posts.push(await loadPost(site, name, taken));
  }
  return posts;
}''')
    s.bash("npx tsc -p . --noEmit && npx vitest run", vitest_ok([("test/slug.test.ts", 3)]))
    s.say("Extracted `loadPost(site, name, taken)`; `loadPosts` just lists the files and collects. Files are "
          "still read one after the other, as before. Same 3 tests pass, tsc clean.\n\nSide thought: if the blog "
          "ever goes multilingual, slugs would have to be unique per language, so `taken` should become a map "
          "keyed by locale. Nothing to do now.")
    s.user("👍")
    return [s]


@scenario("feed-missing-post", "inkwell",
          "debugging a 'bug' that is a typo in the user's front matter; the agent floats a possible warning "
          "nobody asks for: nothing to keep",
          [])
def _debug(files):
    s = Session("feed-missing-post", "2026-11-14T16:44:00.000Z", files)
    s.user("published a post an hour ago, it's on the site but not in feed.xml. older ones are there. rss broken?")
    s.read("src/rss.ts", offset=24, limit=8)
    s.say("`buildFeed` drops drafts, sorts newest first and keeps the top 20. If the post is on the site it isn't "
          "a draft, so the likely reason is its date putting it below the 20th. Let me look at the front matter.")
    s.bash("ls -t content | head -3 && head -5 \"content/$(ls -t content | head -1)\"",
           "sintra-day-trip.md\nlisbon-in-three-days.md\nwinter-reading.md\n---\ntitle: A day in Sintra\n"
           "date: 2025-11-14\ntags: [travel, portugal]\n---")
    s.say("`date: 2025-11-14` — a year off. The feed sorts it among last year's posts, well past the 20 newest, "
          "so it's cut. The site lists every post, which is why it shows up there.\n\nSetting it to "
          "`2026-11-14` fixes it. (The build could warn when a post's date is older than its file's mtime by "
          "months, but that's probably more noise than help.)")
    s.user("ugh. muscle memory. thx")
    return [s]


# == build and check ================================================================================


def build() -> None:
    out = []
    (HERE / "sessions").mkdir(exist_ok=True)
    for old in (HERE / "sessions").glob("*.jsonl"):
        old.unlink()
    for sc in SCENARIOS:
        sessions = sc["fn"](repo_files(sc["repo"]))
        for s in sessions:
            (HERE / "sessions" / f"{s.name}.jsonl").write_text(s.jsonl(), encoding="utf-8")
        out.append({"name": sc["name"], "repo": sc["repo"], "sessions": [f"{s.name}.jsonl" for s in sessions],
                    "note": sc["note"], "expected": sc["expected"]})
    (HERE / "expected.json").write_text(json.dumps({"set": "tune4", "scenarios": out}, indent=2,
                                                   ensure_ascii=False) + "\n", encoding="utf-8")


def check() -> None:
    """Replays each scenario on a copy of its repository (every edit must apply) and checks with
    tether's parser that each expected anchor names a definition of the final state."""
    import shutil
    import tempfile
    sys.path.insert(0, str(TESTS))
    from capture_fixtures import hook_events, materialize
    from tether.core.languages import for_path
    from tether.core.syntax import SourceFile
    for sc in json.loads((HERE / "expected.json").read_text(encoding="utf-8"))["scenarios"]:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "repo"
            shutil.copytree(HERE / "repos" / sc["repo"], root)
            for name in sc["sessions"]:
                path = materialize(name, root, Path(tmp) / "t", HERE / "sessions" / name)
                for _event, change in hook_events(path, root):
                    if change is not None:
                        change()
            for e in sc["expected"]:
                rel, _, name = e["anchor"].partition(":")
                src = SourceFile((root / rel).read_text(encoding="utf-8"), for_path(rel))
                assert not name or name in {d.qualname for d in src.defs}, (sc["name"], e["anchor"])
            text = "".join((HERE / "sessions" / n).read_text(encoding="utf-8") for n in sc["sessions"]).lower()
            for e in sc["expected"]:
                for phrase in [e["phrase"], *e["rejected"]]:
                    assert json.dumps(phrase.lower())[1:-1] in text, (sc["name"], phrase)
        print(f"ok  {sc['name']}: {len(sc['sessions'])} session(s), {len(sc['expected'])} expected")


if __name__ == "__main__":
    build()
    if "--check" in sys.argv:
        check()
