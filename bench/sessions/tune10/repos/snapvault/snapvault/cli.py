"""Command line: ``snapvault backup|restore|prune|list``."""

from __future__ import annotations

import argparse
import fnmatch
import logging
import os
import subprocess
import sys
from pathlib import Path

from . import manifest as mf
from .chunker import chunks
from .config import ConfigError, load_config
from .crypto import Encryptor, derive_key, load_or_create_salt
from .hashing import file_digest
from .restore import restore_snapshot
from .retention import select_prunable
from .store import ChunkStore

log = logging.getLogger("snapvault")


def open_store(cfg) -> ChunkStore:
    enc = None
    if cfg.encrypt:
        if not cfg.passphrase_command:
            raise ConfigError("encrypt = true needs passphrase_command")
        passphrase = subprocess.run(cfg.passphrase_command, shell=True, check=True, capture_output=True,
                                    text=True).stdout.strip()
        enc = Encryptor(derive_key(passphrase, load_or_create_salt(cfg.repository)))
    store = ChunkStore(cfg.repository, enc)
    store.init()
    return store


def backup(cfg, store: ChunkStore) -> mf.Manifest:
    snaps = store.root / "snapshots"
    previous = mf.list_snapshots(snaps)
    prev = mf.load(snaps / f"{previous[-1]}.json") if previous else None
    m = mf.Manifest.new(cfg.sources[0])
    for source in cfg.sources:
        for dirpath, _dirs, names in os.walk(source):
            for name in names:
                full = Path(dirpath) / name
                rel = full.relative_to(source).as_posix()
                if any(fnmatch.fnmatch(rel, pat) for pat in cfg.exclude):
                    continue
                st = full.stat()
                old = prev.entries.get(rel) if prev else None
                if old and old.unchanged(st):
                    m.add(old)
                    continue
                with open(full, "rb") as fh:
                    ids = [store.put(c) for c in chunks(fh)]
                m.add(mf.Entry(rel, st.st_size, st.st_mode, st.st_mtime, file_digest(full), ids))
    m.save(snaps)
    return m


def prune(cfg, store: ChunkStore, dry_run: bool) -> list[str]:
    snaps = store.root / "snapshots"
    doomed = select_prunable(mf.list_snapshots(snaps), cfg.retention)
    if dry_run:
        return doomed
    for name in doomed:
        (snaps / f"{name}.json").unlink()
    live = set().union(*(mf.load(snaps / f"{n}.json").chunk_ids() for n in mf.list_snapshots(snaps)))
    store.delete(store.all_ids() - live)
    return doomed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="snapvault")
    p.add_argument("--config", type=Path)
    p.add_argument("-v", "--verbose", action="store_true")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("backup")
    r = sub.add_parser("restore")
    r.add_argument("snapshot")
    r.add_argument("target", type=Path)
    r.add_argument("--only")
    pr = sub.add_parser("prune")
    pr.add_argument("--dry-run", action="store_true")
    sub.add_parser("list")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(message)s")
    try:
        cfg = load_config(args.config)
        store = open_store(cfg)
    except ConfigError as exc:
        print(f"snapvault: {exc}", file=sys.stderr)
        return 2
    snaps = store.root / "snapshots"
    if args.cmd == "backup":
        m = backup(cfg, store)
        print(f"snapshot {m.snapshot}: {len(m.entries)} files")
    elif args.cmd == "restore":
        n = restore_snapshot(store, mf.load(snaps / f"{args.snapshot}.json"), args.target, args.only)
        print(f"restored {n} files")
    elif args.cmd == "prune":
        for name in prune(cfg, store, args.dry_run):
            print(("would prune " if args.dry_run else "pruned ") + name)
    elif args.cmd == "list":
        for name in mf.list_snapshots(snaps):
            print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
