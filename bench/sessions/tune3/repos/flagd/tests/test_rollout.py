from flagd.rollout import BUCKETS, bucket, in_rollout


def test_bucket_in_range():
    for uid in ("u1", "u2", "alice@example.com"):
        assert 0 <= bucket("new-checkout", uid) < BUCKETS


def test_zero_and_full():
    assert not in_rollout("f", "u1", 0)
    assert in_rollout("f", "u1", 100)


def test_roughly_even():
    inside = sum(in_rollout("f", f"user-{i}", 25) for i in range(4000))
    assert 800 < inside < 1200
