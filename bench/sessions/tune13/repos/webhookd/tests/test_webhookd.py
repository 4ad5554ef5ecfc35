import pytest

from webhookd.breaker import OPEN, BreakerRegistry, CircuitBreaker
from webhookd.config import Settings
from webhookd.deadletter import DeadLetterQueue
from webhookd.delivery import Deliverer, Event, TransportError
from webhookd.replay import replay
from webhookd.signing import build_headers, verify
from webhookd.subscriptions import SubscriptionStore, normalize_url


class FakeClock:
    def __init__(self, t=1_000_000.0):
        self.t = t

    def __call__(self):
        return self.t


class FakeTransport:
    def __init__(self, answers):
        self.answers = list(answers)
        self.calls = []

    def post(self, url, body, headers, timeout):
        self.calls.append((url, body, headers))
        answer = self.answers.pop(0) if self.answers else 200
        if isinstance(answer, Exception):
            raise answer
        return answer


@pytest.fixture
def world():
    clock = FakeClock()
    store = SubscriptionStore()
    sub = store.add("cus_1", "https://Example.com:443/hooks", ["order.created"], secret="whsec_test")
    dlq = DeadLetterQueue()
    return clock, store, sub, dlq


def make(transport, dlq, clock, attempts=3):
    return Deliverer(transport, BreakerRegistry(threshold=100, clock=clock), dlq,
                     Settings(max_attempts=attempts), clock=clock)


def test_normalize_url():
    assert normalize_url("HTTPS://Example.COM:443/a?b=1#frag") == "https://example.com/a?b=1"
    assert normalize_url("http://example.com:8080") == "http://example.com:8080/"
    with pytest.raises(ValueError):
        normalize_url("ftp://example.com/")


def test_signature_verifies(world):
    _, _, sub, _ = world
    body = b'{"a":1}'
    headers = build_headers(sub.secret, "evt_1", "order.created", body, "webhookd/test")
    assert verify(sub.secret, body, headers["X-Webhookd-Signature"])
    assert not verify(sub.secret, body + b" ", headers["X-Webhookd-Signature"])


def test_success_first_try(world):
    clock, _, sub, dlq = world
    d = make(FakeTransport([200]), dlq, clock)
    attempt = d.deliver(sub, Event("evt_1", "order.created", {"n": 1}))
    assert attempt.status == 200 and d.pending() == 0


def test_retries_then_dead_letter(world):
    clock, _, sub, dlq = world
    d = make(FakeTransport([500, TransportError("timeout"), 502]), dlq, clock)
    d.enqueue(sub, Event("evt_1", "order.created", {"n": 1}))
    for _ in range(3):
        d.run_due()
        clock.t += 7 * 3600
    assert [a.number for a in d.attempts] == [1, 2, 3]
    assert len(dlq) == 1 and dlq.list()[0].last_error == "HTTP 502"


def test_breaker_opens_and_half_opens():
    clock = FakeClock()
    b = CircuitBreaker(threshold=2, cooldown=60, clock=clock)
    b.record_failure()
    b.record_failure()
    assert b.state == OPEN and not b.allow()
    clock.t += 61
    assert b.allow()
    b.record_success()
    assert b.allow()


def test_replay_requeues_and_removes(world):
    clock, store, sub, dlq = world
    d = make(FakeTransport([500]), dlq, clock, attempts=1)
    d.deliver(sub, Event("evt_1", "order.created", {"n": 1}))
    assert len(dlq) == 1
    report = replay(dlq, store, d, "cus_1")
    assert len(report.queued) == 1 and len(dlq) == 0 and d.pending() == 1
