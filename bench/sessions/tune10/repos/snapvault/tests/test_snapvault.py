import io
import os
from pathlib import Path

import pytest

from snapvault.chunker import MAX_SIZE, MIN_SIZE, chunks, cut_points
from snapvault.crypto import DecryptionError, Encryptor
from snapvault.hashing import chunk_id
from snapvault.manifest import Entry, Manifest, load
from snapvault.restore import restore_snapshot
from snapvault.retention import Policy, select_prunable
from snapvault.store import ChunkStore


def noise(n: int, seed: int = 1) -> bytes:
    out = bytearray()
    x = seed
    while len(out) < n:
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        out += x.to_bytes(8, "little")
    return bytes(out[:n])


def test_chunks_respect_bounds():
    data = noise(5 * MAX_SIZE)
    cuts = cut_points(data)
    sizes = [b - a for a, b in zip([0, *cuts], cuts)]
    assert cuts[-1] == len(data)
    assert all(MIN_SIZE <= s <= MAX_SIZE for s in sizes[:-1])


def test_stream_chunks_match_whole_buffer():
    data = noise(3 * MAX_SIZE + 123)
    assert b"".join(chunks(io.BytesIO(data), window=MAX_SIZE)) == data


def test_insertion_only_changes_nearby_chunks():
    data = noise(4 * MAX_SIZE)
    a = {chunk_id(c) for c in chunks(io.BytesIO(data))}
    b = {chunk_id(c) for c in chunks(io.BytesIO(b"xx" + data))}
    assert len(a & b) >= len(a) - 2


def test_store_roundtrip_encrypted(tmp_path):
    store = ChunkStore(tmp_path, Encryptor(b"k" * 32))
    store.init()
    cid = store.put(b"hello")
    assert store.has(cid)
    assert store.get(cid) == b"hello"
    assert b"hello" not in store.path_for(cid).read_bytes()


def test_wrong_key_fails(tmp_path):
    store = ChunkStore(tmp_path, Encryptor(b"k" * 32))
    store.init()
    cid = store.put(b"secret")
    with pytest.raises(DecryptionError):
        ChunkStore(tmp_path, Encryptor(b"j" * 32)).get(cid)


def test_manifest_roundtrip(tmp_path):
    m = Manifest.new(Path("/home/u"))
    m.add(Entry("a/b.txt", 3, 0o100644, 1700000000.5, "d" * 64, ["c" * 64]))
    path = m.save(tmp_path)
    assert load(path) == m


def test_restore_snapshot(tmp_path):
    store = ChunkStore(tmp_path / "repo")
    store.init()
    src = tmp_path / "src.txt"
    src.write_bytes(b"payload")
    from snapvault.hashing import file_digest
    m = Manifest.new(tmp_path)
    m.add(Entry("dir/f.txt", 7, 0o100600, 1700000000.0, file_digest(src), [store.put(b"payload")]))
    assert restore_snapshot(store, m, tmp_path / "out") == 1
    out = tmp_path / "out" / "dir" / "f.txt"
    assert out.read_bytes() == b"payload"
    assert os.stat(out).st_mode & 0o777 == 0o600


def test_retention_keeps_newest_per_day():
    snaps = ["20260101T010000Z", "20260101T230000Z", "20260102T010000Z", "20260103T010000Z"]
    assert select_prunable(snaps, Policy(keep_last=0, keep_daily=2, keep_weekly=0, keep_monthly=0)) == [
        "20260101T010000Z", "20260101T230000Z"]


def test_empty_policy_refuses():
    with pytest.raises(ValueError):
        select_prunable(["20260101T010000Z"], Policy(0, 0, 0, 0))
