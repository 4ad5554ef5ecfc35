"""Writes the tune10 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``snapvault`` (Python, an incremental backup CLI) and
``formwise`` (TypeScript, a form-validation library). Sessions are written with the ``Session``
builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after changing a scenario
(outputs are committed). ``python3 build.py --check`` also replays every scenario on a copy of its
repository (every edit must apply, and the replay must end where the builder did) and checks, with
tether's own parser, that every expected anchor names a definition of the final state and that every
key phrase and rejected phrase occurs in the sessions' text.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
TESTS = HERE.parents[2] / "tests"
sys.path.insert(0, str(TESTS / "fixtures" / "transcripts"))
from build import Session  # noqa: E402

SET = "tune10"
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


# -- snapvault (Python) ----------------------------------------------------------------------------------

SV = "snapvault"


@scenario("chunk-hash", SV, "junior asks 'what do you think?'; agent compares SHA-256 / BLAKE2b / xxHash with "
          "pros and cons under each and recommends BLAKE2b; 'sounds good'",
          [exp("decision", "snapvault/hashing.py:chunk_id", "blake2b", ["sha-256", "xxhash"])])
def _hash(files):
    s = Session("chunk-hash", "2027-02-01T10:05:00.000Z", files)
    s.user("hey so I was reading hashing.py and chunk_id is sha1 but CHUNK_ID_LEN says 64 and is_chunk_id "
           "accepts 40 or 64?? looks like someone started switching the hash and never finished. should we "
           "change it? what do you think?")
    s.read("snapvault/hashing.py")
    s.grep("chunk_id|is_chunk_id|CHUNK_ID_LEN", ["snapvault/hashing.py", "snapvault/store.py",
                                                 "tests/test_snapvault.py"])
    s.read("snapvault/store.py", limit=45)
    s.say("You're right, it's half-migrated: `chunk_id` still returns a 40-char SHA-1, `CHUNK_ID_LEN = 64` and "
          "`is_chunk_id` were prepared for a 256-bit hash. Only `ChunkStore.put` calls `chunk_id`, and the id "
          "is what decides dedup, so the hash matters more here than in most places: if two different chunks "
          "ever get the same id, the store keeps the first one and restore silently returns the wrong bytes.\n\n"
          "Here are the realistic options:\n\n"
          "### 1. SHA-256\n"
          "- **Pros:** the obvious standard; `file_digest` already uses it; anyone can check a chunk with "
          "`sha256sum`.\n"
          "- **Cons:** the slowest of the three in CPython without SHA extensions (roughly 400–500 MB/s on "
          "our CI boxes), and backup is hash-bound once the chunker is fast.\n\n"
          "### 2. BLAKE2b with `digest_size=32`\n"
          "- **Pros:** in `hashlib`, no new dependency; noticeably faster than SHA-256 on 64-bit CPUs; "
          "cryptographic, so someone who can plant files in a backed-up folder can't craft a collision to "
          "poison dedup; 32 bytes → 64 hex chars, which matches the `CHUNK_ID_LEN` that's already there.\n"
          "- **Cons:** less familiar; no command-line tool on every box to verify a chunk by hand "
          "(`b2sum` exists but defaults to 512 bits).\n\n"
          "### 3. xxHash (xxh3_128)\n"
          "- **Pros:** by far the fastest.\n"
          "- **Cons:** a new dependency (`xxhash` wheel); not collision-resistant, which is exactly the "
          "property a content-addressed store relies on.\n\n"
          "**What I'd do:** BLAKE2b-256. Migration note: ids are content addresses, so after the switch new "
          "chunks simply won't dedupe against the old SHA-1 chunks — the first backup after upgrading "
          "re-uploads everything once. Old snapshots stay restorable because restore reads each chunk by the "
          "id stored in its manifest, and `is_chunk_id` can keep accepting 40-char ids for them.")
    s.user("sounds good, go with blake2b. the one time re-upload is fine, our repos are tiny")
    s.edit("snapvault/hashing.py",
           "def chunk_id(data: bytes) -> str:\n    \"\"\"The id a chunk is stored under: the hex SHA-1 of its bytes.\"\"\"\n"
           "    return hashlib.sha1(data).hexdigest()\n",
           "def chunk_id(data: bytes) -> str:\n    \"\"\"The id a chunk is stored under: the hex BLAKE2b-256 of its bytes.\n\n"
           "    Chunks written before 0.5 have 40-character SHA-1 ids; they are still read by the id in their\n"
           "    manifest, they just don't dedupe against new chunks.\"\"\"\n"
           "    return hashlib.blake2b(data, digest_size=32).hexdigest()\n")
    s.edit("snapvault/hashing.py",
           "def is_chunk_id(text: str) -> bool:\n    return len(text) in (40, CHUNK_ID_LEN)",
           "def is_chunk_id(text: str) -> bool:\n    # 40: legacy SHA-1 ids from before 0.5\n"
           "    return len(text) in (40, CHUNK_ID_LEN)")
    s.edit("tests/test_snapvault.py", "def test_store_roundtrip_encrypted(tmp_path):\n",
           "def test_chunk_id_is_blake2b_256():\n"
           "    assert chunk_id(b\"abc\") == \"bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319\"\n"
           "    assert len(chunk_id(b\"\")) == 64\n\n\n"
           "def test_store_roundtrip_encrypted(tmp_path):\n")
    s.bash("python -m pytest -q", "..........                                                               [100%]\n"
           "10 passed in 4.71s")
    s.say("Switched `chunk_id` to BLAKE2b-256 and added a test with a known vector. `is_chunk_id` still "
          "accepts 40-char ids so pre-0.5 manifests keep validating. I'd mention the one-time re-upload in the "
          "0.5 changelog.")
    return [s]


@scenario("encryption-rules", SV, "security staff engineer states three rules under markdown headings up front "
          "(random nonces, key material never leaves memory, key rotation out of scope) and a process "
          "instruction (run bandit); agent implements; 'ship it'",
          [exp("invariant", "snapvault/crypto.py:Encryptor.seal", "random 96-bit nonce", ["counter nonce"]),
           exp("invariant", "snapvault/cli.py:open_store", "never leaves memory"),
           exp("boundary", "snapvault/crypto.py:Encryptor", "key rotation")])
def _crypto(files):
    s = Session("encryption-rules", "2027-02-02T08:40:00.000Z", files)
    s.user("## Context\n\n"
           "We are about to point snapvault at the finance share, so I want the encryption layer tightened "
           "before that happens. I read through `crypto.py` and `cli.py` this morning.\n\n"
           "## Rules for the crypto layer\n\n"
           "- **Nonces.** The counter nonce has to go. `Encryptor` is constructed fresh on every run, so the "
           "counter restarts at 1 and we reuse (key, nonce) pairs across runs — with GCM that is catastrophic "
           "(it leaks the XOR of plaintexts and lets an attacker forge tags). Every `seal` must use a fresh "
           "random 96-bit nonce from `os.urandom`. Never a counter, never anything derived from the data.\n"
           "- **Key material never leaves memory.** The derived key and the passphrase must never end up in "
           "the manifest, in log output, or in an exception message or traceback. Please check the "
           "passphrase command path in particular.\n"
           "- **Out of scope.** Key rotation and re-encrypting an existing repository. Not for this change; we "
           "will design that separately once we know how large the repositories get.\n\n"
           "## Process\n\n"
           "- Run `bandit -r snapvault` before you hand it back.\n\n"
           "Let me know if anything is unclear.")
    s.read("snapvault/crypto.py")
    s.read("snapvault/cli.py", offset=1, limit=36)
    s.grep("passphrase|log\\.|logging", ["snapvault/cli.py", "snapvault/restore.py", "snapvault/config.py"])
    s.say("Two findings before editing:\n\n"
          "1. `_nonce` is a per-instance counter, as you say — every run starts at nonce 1.\n"
          "2. `open_store` runs the passphrase command with `check=True`. If the command fails, "
          "`CalledProcessError` propagates to the top level with its `output`/`stderr` attached, and some "
          "password helpers print the secret before failing on a later step. That would end up in a "
          "traceback. Nothing logs the key itself, and the manifest has no key fields.")
    s.edit("snapvault/crypto.py",
           "        self._aead = AESGCM(key)\n        self._counter = 0\n\n"
           "    def _nonce(self) -> bytes:\n        self._counter += 1\n        return self._counter.to_bytes(12, \"big\")\n\n"
           "    def seal(self, data: bytes) -> bytes:\n        nonce = self._nonce()\n",
           "        self._aead = AESGCM(key)\n\n"
           "    def seal(self, data: bytes) -> bytes:\n"
           "        # A fresh random 96-bit nonce for every chunk: an Encryptor lives for one run, so a counter\n"
           "        # would repeat (key, nonce) pairs across runs, which breaks GCM.\n"
           "        nonce = os.urandom(12)\n")
    s.edit("snapvault/cli.py",
           "        passphrase = subprocess.run(cfg.passphrase_command, shell=True, check=True, capture_output=True,\n"
           "                                    text=True).stdout.strip()\n",
           "        proc = subprocess.run(cfg.passphrase_command, shell=True, capture_output=True, text=True)\n"
           "        if proc.returncode != 0:\n"
           "            # not CalledProcessError: its output/stderr could carry the passphrase into a traceback\n"
           "            raise ConfigError(f\"passphrase_command exited with status {proc.returncode}\")\n"
           "        passphrase = proc.stdout.strip()\n")
    s.edit("tests/test_snapvault.py", "def test_wrong_key_fails(tmp_path):\n",
           "def test_nonces_are_not_reused_across_instances(tmp_path):\n"
           "    a = Encryptor(b\"k\" * 32).seal(b\"same\")\n"
           "    b = Encryptor(b\"k\" * 32).seal(b\"same\")\n"
           "    assert a[3:15] != b[3:15]\n\n\n"
           "def test_wrong_key_fails(tmp_path):\n")
    s.bash("python -m pytest -q", "..........                                                               [100%]\n"
           "10 passed in 4.88s")
    s.bash("bandit -r snapvault -q",
           "Run started:2027-02-02 08:52:11.402113\n\nTest results:\n>> Issue: [B602:subprocess_popen_with_shell_equals_true] "
           "subprocess call with shell=True identified, security issue.\n   Severity: High   Confidence: High\n"
           "   Location: snapvault/cli.py:29:15\n\nCode scanned:\n\tTotal lines of code: 402\n"
           "\tTotal lines skipped (#nosec): 0\n\nRun metrics:\n\tTotal issues (by severity):\n\t\tHigh: 1")
    s.say("Done:\n\n"
          "- `Encryptor.seal` now uses `os.urandom(12)` per chunk; the counter is gone. New test checks two "
          "instances don't produce the same nonce.\n"
          "- `open_store` no longer raises `CalledProcessError`; a failing passphrase command gives a "
          "`ConfigError` with only the exit status.\n"
          "- Key rotation untouched, as agreed.\n\n"
          "bandit reports one High: `shell=True` for `passphrase_command`. That one is by design (the config "
          "value is a shell command line, e.g. `pass show backup`), and the config file is the user's own. "
          "I left it; say if you want `shlex.split` instead.")
    s.user("Thanks, that looks right. The `shell=True` finding is acceptable for a user-owned config file. "
           "Ship it.")
    return [s]


@scenario("retention-max-age", SV, "German speaker asks for max age; agent implements and asks two questions at "
          "the end; 'This we do not want. Make it so that the newest snapshot is never pruned'; UTC days over "
          "local time with a reason",
          [exp("invariant", "snapvault/retention.py:select_prunable", "newest snapshot", []),
           exp("decision", "snapvault/retention.py:bucket_key", "utc days", ["local time"])])
def _retention(files):
    s = Session("retention-max-age", "2027-02-03T14:10:00.000Z", files)
    s.user("We need in the retention a max age. Snapshots older than max_age_days shall be pruned, also when "
           "the buckets would keep them. Monthly we keep 6, but for the laptops we want maximal 90 days, "
           "because of the data protection officer.")
    s.read("snapvault/retention.py")
    s.read("snapvault/config.py", offset=28, limit=8)
    s.edit("snapvault/retention.py",
           "    keep_monthly: int = 6\n\n    def is_empty",
           "    keep_monthly: int = 6\n    max_age_days: int | None = None\n\n    def is_empty")
    s.edit("snapvault/retention.py",
           "from datetime import datetime\n",
           "from datetime import datetime, timedelta\n")
    s.edit("snapvault/retention.py",
           "def select_prunable(snapshots: list[str], policy: Policy) -> list[str]:\n"
           "    if policy.is_empty():\n        raise ValueError(\"refusing to prune with an empty policy\")\n"
           "    kept = select_kept(snapshots, policy)\n",
           "def select_prunable(snapshots: list[str], policy: Policy, now: datetime | None = None) -> list[str]:\n"
           "    if policy.is_empty():\n        raise ValueError(\"refusing to prune with an empty policy\")\n"
           "    kept = select_kept(snapshots, policy)\n"
           "    if policy.max_age_days is not None:\n"
           "        limit = (now or datetime.utcnow()) - timedelta(days=policy.max_age_days)\n"
           "        kept = {s for s in kept if parse_snapshot_time(s) >= limit}\n")
    s.edit("snapvault/config.py",
           "    known = {\"keep_last\", \"keep_daily\", \"keep_weekly\", \"keep_monthly\"}\n",
           "    known = {\"keep_last\", \"keep_daily\", \"keep_weekly\", \"keep_monthly\", \"max_age_days\"}\n")
    s.edit("tests/test_snapvault.py", "def test_empty_policy_refuses():\n",
           "def test_max_age_prunes_old_snapshots():\n"
           "    from datetime import datetime\n"
           "    snaps = [\"20260101T010000Z\", \"20260301T010000Z\", \"20260501T010000Z\"]\n"
           "    policy = Policy(keep_last=3, keep_daily=0, keep_weekly=0, keep_monthly=6, max_age_days=90)\n"
           "    assert select_prunable(snaps, policy, now=datetime(2026, 5, 2)) == [\"20260101T010000Z\"]\n\n\n"
           "def test_empty_policy_refuses():\n")
    s.bash("python -m pytest -q tests/test_snapvault.py -k 'retention or max_age or policy'",
           "...                                                                      [100%]\n"
           "3 passed, 7 deselected in 0.21s")
    s.say("`max_age_days` is in: optional in `Policy`, accepted in `[retention]` of the config, and applied "
          "after the buckets, so it removes snapshots the buckets would have kept. Test added.\n\n"
          "Two things I want to check with you:\n\n"
          "1. As written, if a laptop makes no backup for more than 90 days (switched off, long leave), the next "
          "`prune` deletes **every** snapshot, including the newest one. Is that intended?\n"
          "2. The daily/weekly/monthly buckets use the time in the snapshot name, which is UTC. For someone in "
          "UTC+1, a backup at 00:30 local time lands in the previous day's bucket. Should the buckets be UTC "
          "days, or the machine's local time?")
    s.user("To 1: This we do not want. Make it so that the newest snapshot is never pruned, also not by max "
           "age. If the laptop was off, the last backup is the only one we have, and the officer agrees.\n"
           "To 2: UTC days. Local time makes problems with the summer time change, and the laptops travel "
           "between time zones, then the same snapshot goes in different buckets.")
    s.edit("snapvault/retention.py",
           "        kept = {s for s in kept if parse_snapshot_time(s) >= limit}\n",
           "        kept = {s for s in kept if parse_snapshot_time(s) >= limit}\n"
           "    if snapshots:\n"
           "        # the newest snapshot is never pruned, whatever the policy says: after a long gap it may be\n"
           "        # the only backup there is\n"
           "        kept.add(max(snapshots))\n")
    s.edit("snapvault/retention.py",
           "def bucket_key(ts: datetime, period: str) -> str:\n",
           "def bucket_key(ts: datetime, period: str) -> str:\n"
           "    \"\"\"The bucket of a snapshot time. ``ts`` is UTC and buckets are UTC days/weeks/months on purpose:\n"
           "    local time would move snapshots between buckets with DST changes and travelling laptops.\"\"\"\n")
    s.edit("tests/test_snapvault.py", "def test_empty_policy_refuses():\n",
           "def test_newest_survives_max_age():\n"
           "    from datetime import datetime\n"
           "    snaps = [\"20260101T010000Z\", \"20260102T010000Z\"]\n"
           "    policy = Policy(keep_last=3, keep_daily=0, keep_weekly=0, keep_monthly=0, max_age_days=90)\n"
           "    assert select_prunable(snaps, policy, now=datetime(2026, 9, 1)) == [\"20260101T010000Z\"]\n\n\n"
           "def test_empty_policy_refuses():\n")
    s.bash("python -m pytest -q", "............                                                             [100%]\n"
           "11 passed in 4.69s")
    s.say("Done. `select_prunable` always keeps the newest snapshot, also against `max_age_days`, with a test "
          "for the long-gap case. `bucket_key` now documents that buckets are UTC on purpose; no behaviour "
          "change there.")
    return [s]


@scenario("restore-questions", SV, "agent writes a long report and ends with four questions; the person "
          "answers them all in one numbered list ('1. yes 2. yes keep it 3. c for now … 4. later')",
          [exp("decision", "snapvault/restore.py:restore_file", "refuse to overwrite"),
           exp("boundary", "snapvault/cli.py:backup", "symlinks", ["recreate them as links", "keep following them"])])
def _restore(files):
    s = Session("restore-questions", "2027-02-04T09:30:00.000Z", files)
    s.user("restore just overwrites whatever is already in the target dir. can you go through restore.py and "
           "tell me what else is off before we fix anything")
    s.read("snapvault/restore.py")
    s.read("snapvault/manifest.py", offset=12, limit=14)
    s.read("snapvault/cli.py", offset=40, limit=24)
    s.say("## What restore does today\n\n"
          "`restore_snapshot` walks the manifest's entries in path order and calls `restore_file` for each; "
          "`restore_file` creates parent directories, writes the chunks in order, sets the mode and mtime, "
          "then re-hashes the file and compares with the manifest digest.\n\n"
          "## What I found\n\n"
          "- **Overwrites silently.** `open(dest, \"wb\")` truncates whatever is there, so restoring into a "
          "home directory by mistake clobbers live files.\n"
          "- **Digest is checked after the fact.** On a mismatch we raise, but the bad file stays on disk with "
          "the manifest's mtime, so it looks legitimate.\n"
          "- **Symlinks.** `backup()` walks with `os.walk` and calls `stat()`, which follows links, so a "
          "symlink is backed up as a copy of its target (and a link to a directory outside the source is "
          "silently not followed by `os.walk`, so behaviour is inconsistent). A dangling link makes `stat()` "
          "raise and aborts the whole backup.\n"
          "- **mtime** is restored from the manifest, which is what incremental backup relies on.\n\n"
          "## Questions\n\n"
          "1. Should restore refuse to overwrite an existing file unless `--force` is given?\n"
          "2. Keep restoring mtimes from the manifest (today's behaviour)?\n"
          "3. Symlinks: (a) record them in the manifest and recreate them as links on restore, (b) keep "
          "following them and store the target's contents (today), or (c) skip them in backup with a "
          "warning?\n"
          "4. Do you want a progress bar for large restores?")
    s.user("1. yes\n2. yes keep it\n3. c for now, real link support later when someone asks for it\n4. later")
    s.edit("snapvault/restore.py",
           "def restore_file(store: ChunkStore, entry: Entry, target: Path) -> Path:\n"
           "    dest = target / entry.path\n",
           "def restore_file(store: ChunkStore, entry: Entry, target: Path, force: bool = False) -> Path:\n"
           "    dest = target / entry.path\n"
           "    if dest.exists() and not force:\n"
           "        raise RestoreError(f\"{entry.path}: already exists in {target} (use --force to overwrite)\")\n")
    s.edit("snapvault/restore.py",
           "def restore_snapshot(store: ChunkStore, manifest: Manifest, target: Path, only: str | None = None) -> int:\n",
           "def restore_snapshot(store: ChunkStore, manifest: Manifest, target: Path, only: str | None = None,\n"
           "                     force: bool = False) -> int:\n")
    s.edit("snapvault/restore.py",
           "        restore_file(store, manifest.entries[path], target)\n",
           "        restore_file(store, manifest.entries[path], target, force)\n")
    s.edit("snapvault/cli.py",
           "                full = Path(dirpath) / name\n",
           "                full = Path(dirpath) / name\n"
           "                if full.is_symlink():\n"
           "                    # symlinks are not backed up for now (no link support in the manifest yet)\n"
           "                    log.warning(\"skipping symlink %s\", full)\n"
           "                    continue\n")
    s.edit("snapvault/cli.py",
           "    r.add_argument(\"--only\")\n",
           "    r.add_argument(\"--only\")\n    r.add_argument(\"--force\", action=\"store_true\", help=\"overwrite existing files\")\n")
    s.edit("snapvault/cli.py",
           "mf.load(snaps / f\"{args.snapshot}.json\"), args.target, args.only)\n",
           "mf.load(snaps / f\"{args.snapshot}.json\"), args.target, args.only,\n"
           "                             args.force)\n")
    s.edit("tests/test_snapvault.py", "def test_retention_keeps_newest_per_day():\n",
           "def test_restore_refuses_to_overwrite(tmp_path):\n"
           "    from snapvault.hashing import file_digest\n"
           "    from snapvault.restore import RestoreError\n"
           "    store = ChunkStore(tmp_path / \"repo\")\n"
           "    store.init()\n"
           "    (tmp_path / \"out\").mkdir()\n"
           "    (tmp_path / \"out\" / \"f.txt\").write_bytes(b\"live\")\n"
           "    (tmp_path / \"src\").write_bytes(b\"old\")\n"
           "    m = Manifest.new(tmp_path)\n"
           "    m.add(Entry(\"f.txt\", 3, 0o100644, 1700000000.0, file_digest(tmp_path / \"src\"), [store.put(b\"old\")]))\n"
           "    with pytest.raises(RestoreError):\n"
           "        restore_snapshot(store, m, tmp_path / \"out\")\n"
           "    assert (tmp_path / \"out\" / \"f.txt\").read_bytes() == b\"live\"\n"
           "    assert restore_snapshot(store, m, tmp_path / \"out\", force=True) == 1\n\n\n"
           "def test_retention_keeps_newest_per_day():\n")
    s.bash("python -m pytest -q", "..........                                                               [100%]\n"
           "10 passed in 4.62s")
    s.say("Done:\n\n1. `restore_file` raises `RestoreError` if the file exists, unless `force=True`; the CLI has "
          "`--force`. Test added.\n2. mtimes unchanged.\n3. `backup()` skips symlinks with a warning (this also "
          "fixes the dangling-link crash). Link support is left for later.\n4. No progress bar.")
    return [s]


@scenario("gear-table-hashseed", SV, "lowercase report (dedup broken across runs); terse agent reproduces with "
          "two PYTHONHASHSEEDs, finds the salted hash() in the gear table, fixes; 👍",
          [exp("gotcha", "snapvault/chunker.py:_gear_table", "hash randomization")])
def _gear(files):
    s = Session("gear-table-hashseed", "2027-02-05T16:20:00.000Z", files)
    s.user("dedup is broken across runs?? did a git checkout on a 2gb repo (touches every mtime), ran backup "
           "twice and the repo grew by 2gb both times. contents didnt change at all. within one run identical "
           "files do dedup fine")
    s.read("snapvault/chunker.py")
    s.bash("for seed in 1 2; do PYTHONHASHSEED=$seed python -c \"import random; from snapvault.chunker import "
           "cut_points; print(cut_points(random.Random(0).randbytes(4_000_000))[:3])\"; done",
           "[570894, 689852, 804600]\n[324388, 540240, 685937]")
    s.say("Reproduced: same bytes, different cut points per process. `_gear_table` builds the table from "
          "`hash((\"snapvault-gear\", i))`; `hash()` of a str is salted per process (hash randomization, "
          "`PYTHONHASHSEED`), so every run gets a different gear table → different chunk boundaries → no "
          "chunk matches the previous run's. Fixing by deriving the table from BLAKE2b.")
    s.edit("snapvault/chunker.py",
           "from collections.abc import Iterator\n",
           "import hashlib\nfrom collections.abc import Iterator\n")
    s.edit("snapvault/chunker.py",
           "    \"\"\"256 pseudo-random 64-bit values, one per byte value.\"\"\"\n"
           "    return [hash((\"snapvault-gear\", i)) & 0xFFFFFFFFFFFFFFFF for i in range(256)]\n",
           "    \"\"\"256 pseudo-random 64-bit values, one per byte value.\n\n"
           "    Must be the same in every process: not ``hash()``, which is salted per process (hash\n"
           "    randomization), or chunk boundaries differ between runs and nothing dedupes.\"\"\"\n"
           "    return [int.from_bytes(hashlib.blake2b(b\"snapvault-gear\" + bytes([i]), digest_size=8).digest(), \"big\")\n"
           "            for i in range(256)]\n")
    s.edit("tests/test_snapvault.py", "def test_store_roundtrip_encrypted(tmp_path):\n",
           "def test_cut_points_stable_across_processes():\n"
           "    import subprocess\n"
           "    import sys\n"
           "    code = (\"import random; from snapvault.chunker import cut_points; \"\n"
           "            \"print(cut_points(random.Random(0).randbytes(4_000_000)))\")\n"
           "    outs = {subprocess.run([sys.executable, \"-c\", code], capture_output=True, text=True,\n"
           "                           env={**os.environ, \"PYTHONHASHSEED\": seed}).stdout for seed in (\"1\", \"2\")}\n"
           "    assert len(outs) == 1\n\n\n"
           "def test_store_roundtrip_encrypted(tmp_path):\n")
    s.bash("python -m pytest -q", "..........                                                               [100%]\n"
           "10 passed in 5.34s")
    s.say("Fixed; new test runs the chunker under two hash seeds. Existing repos: chunks from before the fix "
          "won't match again, so expect one more full-size backup.")
    s.user("wow. ok 👍")
    return [s]


@scenario("legacy-exclude-key", SV, "verbose message with three unrelated matters; the task in the middle: accept "
          "the legacy `exclude_patterns` key, keep it even if it looks redundant, no warning, with the reason",
          [exp("workaround", "snapvault/config.py:load_config", "exclude_patterns")])
def _exclude(files):
    s = Session("legacy-exclude-key", "2027-02-08T07:55:00.000Z", files)
    s.user("morning! a few things, sorry for the wall of text. first, the 0.4 release notes still mention the "
           "old `snapvault init` command — ignore that, I'll fix the docs myself later this week. second, and "
           "this is the actual task: the NAS boxes still have config files written by our ansible role, and that "
           "role writes `exclude_patterns` instead of `exclude`. load_config silently ignores the unknown key, "
           "so those boxes have been backing up node_modules and the whole docker volumes dir for months. "
           "please make load_config accept `exclude_patterns` as well. I know it looks like junk to keep two "
           "names for the same thing, but we can't touch the ansible role until the infra freeze ends in Q3, so "
           "leave it in even if it looks redundant, and don't log a deprecation warning either, it would land in "
           "their nightly cron mails and people would start filtering those mails. third, totally unrelated: "
           "is tomllib available on 3.10? a couple of the old boxes still run ubuntu 22.04.")
    s.read("snapvault/config.py")
    s.edit("snapvault/config.py",
           "        exclude=list(raw.get(\"exclude\", [])),\n",
           "        # `exclude_patterns` is what the NAS ansible role writes; accepted silently (no warning, it would\n"
           "        # end up in their cron mails) until that role can be changed. Not redundant: don't remove.\n"
           "        exclude=list(raw.get(\"exclude\", [])) + list(raw.get(\"exclude_patterns\", [])),\n")
    s.edit("tests/test_snapvault.py", "def test_empty_policy_refuses():\n",
           "def test_config_accepts_legacy_exclude_patterns(tmp_path):\n"
           "    from snapvault.config import load_config\n"
           "    cfg_path = tmp_path / \"c.toml\"\n"
           "    cfg_path.write_text('repository = \"/r\"\\nsources = [\"/s\"]\\nexclude = [\"*.tmp\"]\\n'\n"
           "                        'exclude_patterns = [\"node_modules/*\"]\\n')\n"
           "    assert load_config(cfg_path, env={}).exclude == [\"*.tmp\", \"node_modules/*\"]\n\n\n"
           "def test_empty_policy_refuses():\n")
    s.bash("python -m pytest -q", "..........                                                               [100%]\n"
           "10 passed in 4.60s")
    s.say("Done: `load_config` merges `exclude` and `exclude_patterns`, silently, with a comment saying why it "
          "stays. Test added.\n\nOn tomllib: it's stdlib from Python 3.11 only, so 3.10 on 22.04 won't import "
          "it. `pyproject.toml` already says `requires-python = \">=3.11\"`, so pip would refuse to install "
          "snapvault there anyway; those boxes would need the deadsnakes 3.11 or a newer release. "
          "I haven't changed anything for that.")
    s.user("perfect, thanks. I'll deal with the old boxes separately")
    return [s]


@scenario("manifest-untrusted", SV, "staff engineer sets a rule after a path-traversal finding in restore "
          "('treat everything read from the repository as untrusted'); a week later restates it in other words "
          "about chunk ids in the store",
          [exp("invariant", "snapvault/*.py", "untrusted")])
def _untrusted(files):
    s = Session("manifest-untrusted-1", "2027-02-09T11:00:00.000Z", files)
    s.user("## Finding\n\n"
           "`restore_file` joins `entry.path` straight onto the target directory. A manifest entry with a path "
           "like `../../home/alice/.ssh/authorized_keys` or an absolute path writes outside the target. "
           "Repositories live on the shared NAS, and more people can write to that share than can read the "
           "backups.\n\n"
           "## Rule\n\n"
           "From now on we treat everything read from the repository as untrusted input — manifests, chunk "
           "files, the salt. Nothing read from a manifest may decide where we write outside the target "
           "directory.\n\n"
           "## Ask\n\n"
           "- Reject entries whose resolved destination is not inside the target (absolute paths, `..`).\n"
           "- Add a test with a malicious manifest.")
    s.read("snapvault/restore.py")
    s.edit("snapvault/restore.py",
           "    dest = target / entry.path\n",
           "    dest = (target / entry.path).resolve()\n"
           "    # manifests are untrusted: an entry must not write outside the target directory\n"
           "    if not dest.is_relative_to(target.resolve()):\n"
           "        raise RestoreError(f\"{entry.path!r}: path escapes the restore target\")\n")
    s.edit("tests/test_snapvault.py", "def test_retention_keeps_newest_per_day():\n",
           "@pytest.mark.parametrize(\"bad\", [\"../escape.txt\", \"/tmp/abs.txt\", \"a/../../escape.txt\"])\n"
           "def test_restore_rejects_paths_outside_target(tmp_path, bad):\n"
           "    from snapvault.restore import RestoreError\n"
           "    store = ChunkStore(tmp_path / \"repo\")\n"
           "    store.init()\n"
           "    m = Manifest.new(tmp_path)\n"
           "    m.add(Entry(bad, 1, 0o100644, 0.0, \"0\" * 64, [store.put(b\"x\")]))\n"
           "    with pytest.raises(RestoreError):\n"
           "        restore_snapshot(store, m, tmp_path / \"out\")\n\n\n"
           "def test_retention_keeps_newest_per_day():\n")
    s.bash("python -m pytest -q", "............                                                             [100%]\n"
           "12 passed in 4.75s")
    s.say("`restore_file` resolves the destination and raises `RestoreError` unless it is inside the resolved "
          "target; absolute paths and `..` both fail. Parametrized test with three malicious paths added. "
          "Symlinked parents inside the target are covered too since the check runs after `resolve()`.")
    s.user("Good. Merging.")

    t = Session("manifest-untrusted-2", "2027-02-16T10:20:00.000Z", s.files)
    t.user("## Store paths\n\n"
           "`ChunkStore.path_for` builds a filesystem path straight from a chunk id, and those ids come out of "
           "manifests. An id like `../../snapshots/x` walks out of `objects/`.\n\n"
           "Same principle as the restore fix last week, in different clothes: whatever sits in the repository "
           "is attacker-controlled as far as this code is concerned, so an id has to be validated with "
           "`is_chunk_id` before it touches the filesystem. Please also make sure `delete` can't be tricked the "
           "same way.")
    t.read("snapvault/store.py")
    t.read("snapvault/hashing.py", offset=28)
    t.edit("snapvault/store.py",
           "from .hashing import chunk_id\n",
           "from .hashing import chunk_id, is_chunk_id\n")
    t.edit("snapvault/store.py",
           "    def path_for(self, cid: str) -> Path:\n        return self.objects / cid[:2] / cid[2:]\n",
           "    def path_for(self, cid: str) -> Path:\n"
           "        # ids come from manifests, which are not trusted: validate before building a path\n"
           "        if not is_chunk_id(cid):\n"
           "            raise ValueError(f\"not a chunk id: {cid!r}\")\n"
           "        return self.objects / cid[:2] / cid[2:]\n")
    t.edit("tests/test_snapvault.py", "def test_wrong_key_fails(tmp_path):\n",
           "def test_store_rejects_bad_ids(tmp_path):\n"
           "    store = ChunkStore(tmp_path)\n"
           "    for bad in (\"../../snapshots/x\", \"ab/../../c\", \"Z\" * 64):\n"
           "        with pytest.raises(ValueError):\n"
           "            store.get(bad)\n"
           "        with pytest.raises(ValueError):\n"
           "            store.delete({bad})\n\n\n"
           "def test_wrong_key_fails(tmp_path):\n")
    t.bash("python -m pytest -q", ".............                                                            [100%]\n"
           "13 passed in 4.81s")
    t.say("`path_for` now raises `ValueError` for anything `is_chunk_id` rejects, and since `has`, `get`, `put` "
          "and `delete` all go through it, `delete` is covered as well (a bad id raises rather than being "
          "skipped like a missing file). Test added for traversal, embedded `..` and non-hex ids.")
    t.user("Thanks. That covers it.")
    return [s, t]


@scenario("explore-dedup", SV, "newcomer questions about dedup; a colleague's rule reported second-hand "
          "(compress before encrypting), discussed, not adopted; a hypothetical about S3", [])
def _explore(files):
    s = Session("explore-dedup", "2027-02-10T15:00:00.000Z", files)
    s.user("hi! im new on this project. how does dedup actually work here? like what happens if two files have "
           "the same chunk")
    s.read("snapvault/chunker.py")
    s.read("snapvault/store.py")
    s.say("Short version:\n\n"
          "1. `chunker.chunks` splits each file at content-defined boundaries: a rolling hash over the bytes, "
          "and a cut wherever its low bits are zero (with a 64 KiB minimum and 1 MiB maximum). Because the "
          "cuts depend on content, not offsets, inserting a few bytes early in a file only changes the chunk "
          "around the insertion.\n"
          "2. Each chunk's id is a hash of its bytes (`hashing.chunk_id`).\n"
          "3. `ChunkStore.put` checks whether `objects/<id[:2]>/<id[2:]>` exists; if so it returns the id "
          "without writing. So two files (or two snapshots) that share a chunk store it once, and both "
          "manifests list the same id.\n"
          "4. `prune` deletes snapshots, then deletes every chunk no remaining manifest refers to.\n\n"
          "There's also a cheaper shortcut before chunking: if a file's size and mtime match the previous "
          "snapshot's entry, `backup()` reuses the old entry without reading the file.")
    s.user("cool. my colleague says we should always compress chunks before encrypting them, is that right?")
    s.say("It's a common recommendation and it would save space (encrypted data doesn't compress, so it has to "
          "happen before). The caveat people raise is length leaks: compressed size depends on content, so if "
          "an attacker can get their own data into the same chunk as a secret and watch the stored sizes, they "
          "can learn things about the secret (the CRIME/BREACH family). For a backup tool that's usually a low "
          "risk, and restic and borg both compress before encrypting. It's a design decision for the project "
          "though, not something I'd slip in.")
    s.user("ok makes sense. and hypothetically if we ever moved repositories to S3, would the objects/ab/ "
           "fan-out still matter?")
    s.say("Not for S3 itself — keys are flat and the `ab/` prefix is just part of the key. It'd matter for "
          "listing cost: `all_ids()` globs the whole tree, which on S3 becomes a paginated LIST of every "
          "object. If that ever happens you'd want the snapshot manifests to be the index instead of listing "
          "the bucket.")
    s.user("thanks, that helps a lot")
    return [s]


@scenario("rename-has", SV, "terse rename of ChunkStore.has to contains across two files", [])
def _rename(files):
    s = Session("rename-has", "2027-02-11T13:45:00.000Z", files)
    s.user("rename ChunkStore.has -> contains. update callers")
    s.grep("\\.has\\(|def has", ["snapvault/store.py", "tests/test_snapvault.py"])
    s.edit("snapvault/store.py", "    def has(self, cid: str) -> bool:\n", "    def contains(self, cid: str) -> bool:\n")
    s.edit("tests/test_snapvault.py", "    assert store.has(cid)\n", "    assert store.contains(cid)\n")
    s.bash("python -m pytest -q", ".........                                                                [100%]\n"
           "9 passed in 4.58s")
    s.say("Renamed; one caller in the tests. 9 passed.")
    s.user("👍")
    return [s]


# -- formwise (TypeScript) -------------------------------------------------------------------------------

FW = "formwise"


def vitest(passed: int, failed: int = 0, ms: int = 14, fail_text: str = "") -> str:
    head = " RUN  v2.1.4 /home/dev/formwise\n\n"
    if failed:
        body = (f" ❯ test/formwise.test.ts ({passed + failed} tests | {failed} failed) {ms}ms\n{fail_text}\n"
                f" Test Files  1 failed (1)\n      Tests  {failed} failed | {passed} passed ({passed + failed})\n")
    else:
        body = (f" ✓ test/formwise.test.ts ({passed} tests) {ms}ms\n\n"
                f" Test Files  1 passed (1)\n      Tests  {passed} passed ({passed})\n")
    return head + body + ("   Start at  10:41:07\n   Duration  388ms (transform 58ms, setup 0ms, collect 74ms, "
                          f"tests {ms}ms, environment 0ms, prepare 91ms)")


@scenario("async-stale-results", FW, "agent compares three fixes with pros/cons under each and recommends one; "
          "person answers 'the second'",
          [exp("decision", "src/async.ts:AsyncRunner.run", "generation counter", ["abortcontroller", "serial queue"])])
def _stale(files):
    s = Session("async-stale-results", "2027-03-01T10:30:00.000Z", files)
    s.user("async validators race. type `bob` then `bobby` in the username field, the `bob` request comes back "
           "last and `bobby` shows \"taken\". fix?")
    s.read("src/async.ts")
    s.read("src/form.ts", offset=50, limit=14)
    s.say("`AsyncRunner.run` has no notion of which run is current, and `validateField` writes whatever "
          "resolves last into `f.error` (`stale` is always `false`). Three ways to fix it:\n\n"
          "**1. AbortController per run**\n"
          "- + cancels the in-flight request, so the server does less work\n"
          "- − every async rule has to honour the signal; a rule that ignores it still resolves late, so we'd "
          "need a staleness check anyway\n\n"
          "**2. Generation counter in `AsyncRunner`**\n"
          "- + a few lines, works with any rule, no cooperation from rule authors\n"
          "- − the superseded request still runs to completion on the server\n\n"
          "**3. Serial queue (one run at a time, in order)**\n"
          "- + results always arrive in order\n"
          "- − typing fast queues a request per keystroke that outlives the debounce; latency adds up\n\n"
          "I'd do 2 now; passing a signal (1) can be layered on top later without changing the API.")
    s.user("the second")
    s.edit("src/async.ts",
           "  private running = 0;\n\n",
           "  private running = 0;\n  private generation = 0;\n\n")
    s.edit("src/async.ts",
           "  async run(value: unknown): Promise<AsyncOutcome> {\n    this.running++;\n    try {\n"
           "      for (const rule of this.rules) {\n        const error = await rule(value);\n"
           "        if (error) return { error, stale: false };\n      }\n      return { error: null, stale: false };\n",
           "  // Each run takes a generation number; a run that finishes after a newer one started reports\n"
           "  // `stale: true` and its result is dropped (the request itself is not cancelled).\n"
           "  async run(value: unknown): Promise<AsyncOutcome> {\n    const gen = ++this.generation;\n"
           "    this.running++;\n    try {\n"
           "      for (const rule of this.rules) {\n        const error = await rule(value);\n"
           "        if (gen !== this.generation) return { error: null, stale: true };\n"
           "        if (error) return { error, stale: false };\n      }\n"
           "      return { error: null, stale: gen !== this.generation };\n")
    s.edit("src/form.ts",
           "    f.validating = false;\n    if (!outcome.stale) f.error = outcome.error;\n",
           "    f.validating = this.runners.get(name)!.busy;\n    if (outcome.stale) return !f.error;\n"
           "    f.error = outcome.error;\n")
    s.edit("test/formwise.test.ts",
           "import { createForm, field, registerCatalog, setLocale, translate } from \"../src\";\n",
           "import { AsyncRunner, createForm, field, registerCatalog, setLocale, translate, type RuleResult } from \"../src\";\n")
    s.edit("test/formwise.test.ts", "describe(\"form\", () => {\n",
           "describe(\"async\", () => {\n"
           "  it(\"drops the result of a superseded run\", async () => {\n"
           "    const resolvers: Array<() => void> = [];\n"
           "    const taken = (v: unknown) =>\n"
           "      new Promise<RuleResult | null>((res) => resolvers.push(() => res(v === \"bob\" ? { key: \"taken\" } : null)));\n"
           "    const runner = new AsyncRunner([taken]);\n"
           "    const first = runner.run(\"bob\");\n"
           "    const second = runner.run(\"bobby\");\n"
           "    resolvers[1]();\n"
           "    resolvers[0]();\n"
           "    expect(await second).toEqual({ error: null, stale: false });\n"
           "    expect(await first).toEqual({ error: null, stale: true });\n"
           "  });\n"
           "});\n\n"
           "describe(\"form\", () => {\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(8))
    s.say("Generation counter in `AsyncRunner.run`; `validateField` ignores stale outcomes and keeps "
          "`validating` true while a newer run is still busy. Test reproduces the bob/bobby order. 8 passed.")
    return [s]


@scenario("message-keys", FW, "German speaker: 'This we do not want. Make it so that every rule gives back only a "
          "key'; agent asks (a) English fallback or (b) empty string; both rejected, 'show the key itself'",
          [exp("invariant", "src/rules.ts", "only a key"),
           exp("decision", "src/messages.ts:translate", "show the key", ["back to english", "empty string"])])
def _keys(files):
    s = Session("message-keys", "2027-03-02T08:15:00.000Z", files)
    s.user("The rules minLength, maxLength and email give back English sentences, the others give a key. This "
           "we do not want. Make it so that every rule gives back only a key and params, and the text comes "
           "always from the catalog. We have customers in Austria and Switzerland, an English sentence in the "
           "middle of a German form is not acceptable for them.")
    s.read("src/rules.ts")
    s.read("src/messages.ts")
    s.edit("src/rules.ts", "export type Rule = (value: unknown) => RuleResult | string | null;\n",
           "// A rule returns a message key (and params), never text: text comes from the catalogs in messages.ts.\n"
           "export type Rule = (value: unknown) => RuleResult | null;\n")
    s.edit("src/rules.ts", "    return len < n ? `Must be at least ${n} characters` : null;\n",
           "    return len < n ? { key: \"minLength\", params: { min: n } } : null;\n")
    s.edit("src/rules.ts", "    return String(v).length > n ? `Must be at most ${n} characters` : null;\n",
           "    return String(v).length > n ? { key: \"maxLength\", params: { max: n } } : null;\n")
    s.edit("src/rules.ts",
           "  return (v) => (isEmpty(v) || EMAIL.test(String(v)) ? null : \"Not a valid email address\");\n",
           "  return (v) => (isEmpty(v) || EMAIL.test(String(v)) ? null : { key: \"email\" });\n")
    s.edit("src/rules.ts", "export function runRules(rules: Rule[], value: unknown): RuleResult | string | null {\n",
           "export function runRules(rules: Rule[], value: unknown): RuleResult | null {\n")
    s.edit("src/messages.ts", "  range: \"Must be between {min} and {max}\",\n",
           "  range: \"Must be between {min} and {max}\",\n"
           "  minLength: \"Must be at least {min} characters\",\n"
           "  maxLength: \"Must be at most {max} characters\",\n"
           "  email: \"Not a valid email address\",\n")
    s.edit("src/state.ts", "  error: RuleResult | string | null = null;\n", "  error: RuleResult | null = null;\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(7))
    s.say("Done: `minLength`, `maxLength` and `email` now return `{ key, params }`, the `Rule` type no longer "
          "allows a string, and the English texts moved into the `en` catalog. tsc is clean, 7 passed.\n\n"
          "One related question. When the active locale's catalog has no entry for a key, `translate` falls "
          "back to the English catalog. So a German form with an incomplete `de` catalog still shows English "
          "sentences. Options:\n\n"
          "(a) keep falling back to English (today)\n"
          "(b) return an empty string, so no foreign-language text ever shows\n\n"
          "Which one do you prefer?")
    s.user("Both are not good. With the fallback to English the translator does not notice that a key is "
           "missing, and with an empty string the user does not see that there is an error at all. Show the "
           "key itself, like `minLength`. Then the QA finds it in the test, and the user sees at least "
           "something is wrong.")
    s.edit("src/messages.ts",
           "  const template = catalogs.get(locale)?.[key] ?? catalogs.get(\"en\")?.[key] ?? key;\n",
           "  // No fallback to another locale: a missing translation shows the key itself, so QA notices it.\n"
           "  const template = catalogs.get(locale)?.[key] ?? key;\n")
    s.edit("test/formwise.test.ts", "    setLocale(\"en\");\n  });\n",
           "    setLocale(\"en\");\n  });\n\n"
           "  it(\"shows the key when the locale has no text for it\", () => {\n"
           "    registerCatalog(\"de-CH\", { required: \"Pflichtfeld\" });\n"
           "    expect(translate(\"minLength\", { min: 3 }, \"de-CH\")).toBe(\"minLength\");\n"
           "  });\n")
    s.bash("npx vitest run", vitest(8))
    s.say("`translate` now uses only the requested locale's catalog and returns the key when the entry is "
          "missing; no English fallback. Test added.")
    s.user("Good, thank you.")
    return [s]


@scenario("debounce-sync-rules", FW, "terse agent ends with three numbered questions; the person answers in one "
          "numbered list ('1. only async … 2. cancel … 3. no, keep it')",
          [exp("decision", "src/form.ts:Form.handleChange", "only async", ["keep debouncing both"]),
           exp("decision", "src/form.ts:Form.reset", "cancel", ["let it run"])])
def _debounce(files):
    s = Session("debounce-sync-rules", "2027-03-03T13:00:00.000Z", files)
    s.user("validation feels laggy: clear a required field and the error shows up a good 300ms later. also we "
           "need a form.reset(), there's only FieldState.reset right now")
    s.read("src/form.ts")
    s.read("src/debounce.ts", limit=12)
    s.say("Cause: `handleChange` sends every change through the debounce, sync rules included.\n\n"
          "1. Debounce only async rules and run sync rules at once? Or keep debouncing both?\n"
          "2. `reset()` while a validation is pending: cancel it, or let it run (its error would land on the "
          "reset form)?\n"
          "3. Rename the option `debounceMs` → `asyncDebounceMs` to match?")
    s.user("1. only async, sync errors should show right away\n2. cancel. a reset form shouldnt show errors\n"
           "3. no, keep it")
    s.edit("src/form.ts",
           "  handleChange(name: string, value: unknown): void {\n    this.field(name).setValue(value);\n"
           "    this.pending.get(name)!();\n    this.options.onChange?.(name, this.field(name));\n  }\n",
           "  handleChange(name: string, value: unknown): void {\n    const f = this.field(name);\n"
           "    f.setValue(value);\n"
           "    // sync rules run at once; only the async ones wait for the debounce\n"
           "    f.error = runRules(this.specs[name].rules, f.value);\n"
           "    if (f.error) this.pending.get(name)!.cancel();\n    else this.pending.get(name)!();\n"
           "    this.options.onChange?.(name, f);\n  }\n\n"
           "  reset(): void {\n"
           "    // pending validations are cancelled, not run: a reset form shows no errors\n"
           "    for (const d of this.pending.values()) d.cancel();\n"
           "    for (const f of this.fields.values()) f.reset();\n  }\n")
    s.edit("test/formwise.test.ts", "  it(\"tracks dirty\", () => {\n",
           "  it(\"shows sync errors without waiting for the debounce\", () => {\n"
           "    vi.useFakeTimers();\n"
           "    const form = createForm({ name: field().initial(\"x\").required() });\n"
           "    form.handleChange(\"name\", \"\");\n"
           "    expect(form.field(\"name\").error).toEqual({ key: \"required\" });\n"
           "    vi.useRealTimers();\n"
           "  });\n\n"
           "  it(\"reset cancels pending validation\", () => {\n"
           "    vi.useFakeTimers();\n"
           "    const form = createForm({ name: field().min(3) });\n"
           "    form.handleChange(\"name\", \"abcd\");\n"
           "    form.reset();\n"
           "    vi.advanceTimersByTime(1000);\n"
           "    expect(form.field(\"name\").error).toBeNull();\n"
           "    expect(form.dirty).toBe(false);\n"
           "    vi.useRealTimers();\n"
           "  });\n\n"
           "  it(\"tracks dirty\", () => {\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(9))
    s.say("Done. Sync errors immediate, async debounced; `Form.reset()` cancels pending and resets fields. "
          "Option name unchanged. 9 passed.")
    return [s]


@scenario("dirty-initial-value", FW, "lowercase, typos, thinks aloud: picks option 2, then reverts to option 1 in "
          "the same session; the agent's test fails on arrays (reference equality), cause found and fixed",
          [exp("decision", "src/state.ts:FieldState.dirty", "initial value", ["clear it on blur"]),
           exp("gotcha", "src/state.ts:valuesEqual", "reference equality")])
def _dirty(files):
    s = Session("dirty-initial-value", "2027-03-04T17:25:00.000Z", files)
    s.user("ppl complain the 'you have unsaved changes' prompt shows up even after they undo what they typed. "
           "dirty is sticky rn right? whats the least invasive fix")
    s.read("src/state.ts")
    s.say("Yes — `setValue` sets a private `changed` flag and nothing clears it except `reset()`. Two ways:\n\n"
          "1. Compute `dirty` by comparing the current value to the initial value; drop the flag.\n"
          "2. Keep the sticky flag, but clear it on blur when the value is back to the initial value.\n\n"
          "2 changes less behaviour for existing users; 1 is simpler and is what most form libraries do.")
    s.user("hmm 2 sounds less invasive. do 2")
    s.edit("src/state.ts",
           "  markTouched(): void {\n    this.touched = true;\n  }\n",
           "  markTouched(): void {\n    this.touched = true;\n"
           "    if (this.value === this.initial) this.changed = false;\n  }\n")
    s.say("Done: `markTouched` (called on blur) clears `changed` when the value equals the initial one.")
    s.user("actualy no, thinking about it more 2 is weird — the field stays dirty while youre still in it, and "
           "the save button flickers on blur. lets go with 1, compare to the initial value and get rid of the "
           "changed flag alltogether")
    s.edit("src/state.ts",
           "  markTouched(): void {\n    this.touched = true;\n"
           "    if (this.value === this.initial) this.changed = false;\n  }\n",
           "  markTouched(): void {\n    this.touched = true;\n  }\n")
    s.edit("src/state.ts",
           "  validating = false;\n  private changed = false;\n",
           "  validating = false;\n")
    s.edit("src/state.ts",
           "  get dirty(): boolean {\n    return this.changed;\n  }\n\n"
           "  setValue(value: T): void {\n    this.value = value;\n    this.changed = true;\n  }\n",
           "  get dirty(): boolean {\n    return this.value !== this.initial;\n  }\n\n"
           "  setValue(value: T): void {\n    this.value = value;\n  }\n")
    s.edit("src/state.ts",
           "    this.value = this.initial;\n    this.changed = false;\n",
           "    this.value = this.initial;\n")
    s.edit("test/formwise.test.ts", "    expect(form.dirty).toBe(true);\n  });\n",
           "    expect(form.dirty).toBe(true);\n  });\n\n"
           "  it(\"is clean again after undoing\", () => {\n"
           "    const form = createForm({ name: field().initial(\"ann\"), tags: field().initial([]) });\n"
           "    form.handleChange(\"name\", \"anna\");\n"
           "    form.handleChange(\"name\", \"ann\");\n"
           "    form.handleChange(\"tags\", [\"a\"]);\n"
           "    form.handleChange(\"tags\", []);\n"
           "    expect(form.dirty).toBe(false);\n"
           "  });\n")
    s.bash("npx vitest run", vitest(7, 1, 19,
           "   × form > is clean again after undoing 4ms\n     → expected true to be false // Object.is equality\n\n"
           "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n FAIL  test/formwise.test.ts > form > is clean again after undoing\n"
           "AssertionError: expected true to be false // Object.is equality\n\n- Expected\n+ Received\n\n- false\n+ true\n\n"
           " ❯ test/formwise.test.ts:66:24\n"), fail=True)
    s.say("The name field is fine; it's the `tags` field. `[] !== []`: `dirty` uses reference equality, and a "
          "multi-select or checkbox group sets a new array on every change, so an array value is never equal "
          "to its initial array even when the contents match. I'll compare arrays element by element (and "
          "plain objects key by key, for date-range style values).")
    s.edit("src/state.ts",
           "import type { RuleResult } from \"./rules\";\n",
           "import type { RuleResult } from \"./rules\";\n\n"
           "// Shallow structural equality: array and object values are new instances on every change, so\n"
           "// reference equality would make them dirty forever.\n"
           "export function valuesEqual(a: unknown, b: unknown): boolean {\n"
           "  if (Object.is(a, b)) return true;\n"
           "  if (Array.isArray(a) && Array.isArray(b)) {\n"
           "    return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));\n"
           "  }\n"
           "  if (a && b && typeof a === \"object\" && typeof b === \"object\") {\n"
           "    const ka = Object.keys(a);\n"
           "    const kb = Object.keys(b);\n"
           "    return ka.length === kb.length &&\n"
           "      ka.every((k) => Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));\n"
           "  }\n"
           "  return false;\n"
           "}\n")
    s.edit("src/state.ts", "    return this.value !== this.initial;\n",
           "    return !valuesEqual(this.value, this.initial);\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(8))
    s.say("Fixed with a shallow `valuesEqual`; `dirty` is now \"value differs from the initial value\", the "
          "sticky flag is gone. 8 passed.")
    s.user("nice ty")
    return [s]


@scenario("builder-immutable", FW, "junior asks 'what do you think?' and accepts 'make builders immutable' with "
          "'ok do that'; in a later session a German speaker corrects a mutating merge() with the same rule in "
          "other words",
          [exp("invariant", "src/schema.ts:FieldBuilder", "immutable", ["document that initial() mutates"])])
def _immutable(files):
    s = Session("builder-immutable-1", "2027-03-05T11:10:00.000Z", files)
    s.user("got a bug report: `const base = field().initial(\"\"); const admin = base.initial(\"admin\");` and "
           "then forms built from `base` also start with \"admin\". is that a bug or are you not supposed to "
           "reuse builders? what do you think?")
    s.read("src/schema.ts")
    s.say("It's a bug, and an inconsistent one: every method goes through `with()` or `new FieldBuilder(...)` "
          "and returns a new builder, except `initial()`, which writes `this.spec.initial` and returns `this`. "
          "So `base` and `admin` are the same object.\n\n"
          "Two ways to resolve it:\n\n"
          "- make builders immutable everywhere — every method returns a new builder and never touches "
          "`this` — and fix `initial()`;\n"
          "- or document that initial() mutates and tell people to call `field()` again.\n\n"
          "I'd make them immutable. Sharing a base (`const email = field().required().email()`) and deriving "
          "variants from it is the main reason to have a builder at all, and the reporter's code is exactly "
          "that.")
    s.user("ok do that")
    s.edit("src/schema.ts",
           "  initial(value: unknown): FieldBuilder {\n    this.spec.initial = value;\n    return this;\n  }\n",
           "  initial(value: unknown): FieldBuilder {\n    return new FieldBuilder({ ...this.spec, initial: value });\n  }\n")
    s.edit("src/schema.ts",
           "export class FieldBuilder {\n",
           "// Builders are immutable: every method returns a new FieldBuilder and never modifies `this`, so a\n"
           "// shared base can be extended in several directions.\n"
           "export class FieldBuilder {\n")
    s.edit("test/formwise.test.ts", "describe(\"messages\", () => {\n",
           "describe(\"schema\", () => {\n"
           "  it(\"does not change a shared base builder\", () => {\n"
           "    const base = field().initial(\"\");\n"
           "    const admin = base.initial(\"admin\");\n"
           "    expect(base.build().initial).toBe(\"\");\n"
           "    expect(admin.build().initial).toBe(\"admin\");\n"
           "  });\n"
           "});\n\n"
           "describe(\"messages\", () => {\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(8))
    s.say("Fixed `initial()`, added a comment on the class stating the rule and a regression test. 8 passed.")

    t = Session("builder-immutable-2", "2027-03-12T09:00:00.000Z", s.files)
    t.user("Add to the field builder a method merge(other), which takes the rules of another builder, so we "
           "can combine a `password` base with a `strongPassword` one.")
    t.read("src/schema.ts")
    t.edit("src/schema.ts",
           "  build(): FieldSpec {\n",
           "  merge(other: FieldBuilder): FieldBuilder {\n"
           "    const spec = other.build();\n"
           "    this.spec.rules.push(...spec.rules);\n"
           "    this.spec.asyncRules.push(...spec.asyncRules);\n"
           "    return this;\n"
           "  }\n\n"
           "  build(): FieldSpec {\n")
    t.bash("npx tsc --noEmit && npx vitest run", vitest(8))
    t.say("Added `merge(other)`: appends the other builder's sync and async rules and returns the builder, so "
          "it chains: `password.merge(strong).required()`.")
    t.user("No. This changes the password base for everybody who uses it. The builder is not to be changed "
           "after it is made — same as we did for initial(): every method gives a new one back. Please do it "
           "this way also here.")
    t.edit("src/schema.ts",
           "    const spec = other.build();\n"
           "    this.spec.rules.push(...spec.rules);\n"
           "    this.spec.asyncRules.push(...spec.asyncRules);\n"
           "    return this;\n",
           "    const spec = other.build();\n"
           "    return new FieldBuilder({\n"
           "      ...this.spec,\n"
           "      rules: [...this.spec.rules, ...spec.rules],\n"
           "      asyncRules: [...this.spec.asyncRules, ...spec.asyncRules],\n"
           "    });\n")
    t.edit("test/formwise.test.ts", "    expect(admin.build().initial).toBe(\"admin\");\n  });\n",
           "    expect(admin.build().initial).toBe(\"admin\");\n  });\n\n"
           "  it(\"merge returns a new builder\", () => {\n"
           "    const password = field().min(8);\n"
           "    const strong = field().matches(/[0-9]/, \"digit\");\n"
           "    const both = password.merge(strong);\n"
           "    expect(password.build().rules).toHaveLength(1);\n"
           "    expect(both.build().rules).toHaveLength(2);\n"
           "  });\n")
    t.bash("npx tsc --noEmit && npx vitest run", vitest(9))
    t.say("Right, sorry — `merge` now returns a new builder with both rule lists and leaves `this` and `other` "
          "untouched. Test checks the base keeps its single rule. 9 passed.")
    return [s, t]


@scenario("blur-microtask", FW, "person suspects the queueMicrotask in handleBlur is a bug; the agent finds the "
          "commit that explains it (UI libraries firing blur before change); kept, with a comment",
          [exp("workaround", "src/form.ts:Form.handleBlur", "fire blur before")])
def _blur(files):
    s = Session("blur-microtask", "2027-03-08T14:50:00.000Z", files)
    s.user("why is handleBlur wrapping everything in queueMicrotask? looks like a bug / leftover. if so rip it "
           "out, it makes the tests awkward")
    s.read("src/form.ts", offset=44, limit=10)
    s.bash("git log -L '/handleBlur/,+7:src/form.ts' --format='%h %an %ad%n%s%n%n%b' --date=short | head -30",
           "9c1e4a7 Marta Kowalczyk 2026-10-14\n"
           "blur: defer touched + validate to a microtask (#212)\n\n"
           "react-select and two of the date pickers we support fire blur *before* they call onChange with\n"
           "the picked value, so validateField ran on the old value and showed \"required\" on a field the\n"
           "user had just filled. Deferring to a microtask lets the change land first.\n\n"
           "diff --git a/src/form.ts b/src/form.ts\n"
           "@@ -44,4 +44,8 @@\n   handleBlur(name: string): void {\n-    this.field(name).markTouched();\n"
           "-    void this.validateField(name);\n+    const f = this.field(name);\n+    queueMicrotask(() => {\n"
           "+      f.markTouched();\n+      void this.validateField(name);\n+    });\n   }")
    s.say("It's deliberate, not a leftover. Commit 9c1e4a7 (#212): react-select and some date pickers fire "
          "blur before they call onChange with the picked value, so validating synchronously on blur checked "
          "the old value and flashed \"required\" on a field the user had just filled. The microtask lets the "
          "change land first. Removing it would bring #212 back.\n\n"
          "For the tests, `await Promise.resolve()` after `handleBlur` is enough to flush it. I'd keep the "
          "microtask and add a comment so the next person doesn't wonder the same thing.")
    s.user("ah ok, didnt know. keep it then, add the comment")
    s.edit("src/form.ts",
           "    const f = this.field(name);\n    queueMicrotask(() => {\n",
           "    const f = this.field(name);\n"
           "    // Deferred on purpose (#212): some UI libraries (react-select, date pickers) fire blur before\n"
           "    // their onChange, so validating now would check the old value. Tests: await a microtask.\n"
           "    queueMicrotask(() => {\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(7))
    s.say("Comment added; no behaviour change.")
    return [s]


@scenario("review-async-form", FW, "process instruction (run eslint first); a review with should/must suggestions "
          "that nobody takes up in the session", [])
def _review(files):
    s = Session("review-async-form", "2027-03-09T09:40:00.000Z", files)
    s.user("run eslint first, then give me a review of async.ts and form.ts. no changes, I just want a second "
           "pair of eyes before the 0.8 release")
    s.bash("npx eslint src test", "\n/home/dev/formwise/src/form.ts\n  48:5  warning  Promise returned in function "
           "argument where a void return was expected  @typescript-eslint/no-misused-promises\n\n"
           "✖ 1 problem (0 errors, 1 warning)")
    s.read("src/async.ts")
    s.read("src/form.ts")
    s.say("eslint: one warning (the `queueMicrotask` callback in `handleBlur` returning through `void`), "
          "harmless.\n\nReview:\n\n"
          "**async.ts**\n"
          "- `run` never passes the `AbortSignal` the `AsyncRule` type advertises; either pass one or drop the "
          "parameter from the type, it's misleading as is.\n"
          "- `stale` is always `false`, so `validateField`'s stale check is dead code. Out-of-order responses "
          "will overwrite newer results — this should be fixed before 0.8 if async rules are used for "
          "uniqueness checks.\n"
          "- A rule that rejects (network error) propagates out of `validateField` and leaves "
          "`validating = true` forever. It must be caught somewhere; I'd map it to a `{ key: \"asyncFailed\" }` "
          "error.\n\n"
          "**form.ts**\n"
          "- `submit` marks fields touched *after* validating, so `onChange` listeners see errors on untouched "
          "fields for one tick. Swapping the two lines would fix it.\n"
          "- `field()` throws on unknown names, but `handleChange` uses `this.pending.get(name)!` after it, "
          "which is fine; the non-null assertions could still go.\n"
          "- `dirty` is sticky (undo doesn't clear it); worth documenting or changing.\n\n"
          "None of this is blocking except perhaps the rejected-promise case.")
    s.user("thanks, good list. I'll open issues for the ones we want and we'll see")
    return [s]


@scenario("react-adapter-plan", FW, "junior asks how a React adapter would look; the agent proposes a plan; "
          "nobody adopts it ('I'll bring it up in planning')", [])
def _plan(files):
    s = Session("react-adapter-plan", "2027-03-10T16:05:00.000Z", files)
    s.user("someone on the team asked if we could have a react hook for formwise. how would we do that? what do "
           "you think?")
    s.read("src/form.ts")
    s.read("src/index.ts")
    s.say("Here's how I'd approach it:\n\n"
          "1. **Separate package** `@formwise/react`, so the core stays framework-free and has no React peer "
          "dependency.\n"
          "2. **`useForm(schema, options)`** creates the `Form` once (`useRef`), and subscribes to changes via "
          "`useSyncExternalStore`. That needs a small change in core: a `subscribe(listener)` method on `Form` "
          "instead of the single `onChange` option, plus a version counter for snapshots.\n"
          "3. **`register(name)`** returns `{ value, onChange, onBlur, name }` so inputs can spread it.\n"
          "4. **Tests** with `@testing-library/react`.\n\n"
          "Step 2 is the only core change; everything else lives in the new package. Roughly two days of "
          "work.")
    s.user("ok that's useful, thanks. I'll bring it up in planning, no idea yet if we want to maintain a second "
           "package")
    return [s]


# -- build and check ------------------------------------------------------------------------------------------


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
    (tether's parser) of the final state, or a file, or a glob matching some file; every phrase and
    rejected phrase must occur in the sessions' text."""
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
