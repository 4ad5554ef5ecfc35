import pytest

from mailq.bounces import BounceTracker, parse_dsn
from mailq.message import Message
from mailq.queue import OutboundQueue
from mailq.retry import GiveUp, next_delay
from mailq.smtp_sender import SendResult
from mailq.templates import Template, render
from mailq.throttle import Throttle
from mailq.unsubscribe import UnsubscribeList


class FakeSender:
    def __init__(self, codes=None):
        self.codes = list(codes or [])
        self.delivered = []

    def deliver(self, message):
        code = self.codes.pop(0) if self.codes else 250
        if code == 250:
            self.delivered.append(message)
        return SendResult(code == 250, code)


class Clock:
    def __init__(self, t=1000.0):
        self.t = t

    def __call__(self):
        return self.t


def test_render_fills_placeholders():
    t = Template("welcome", "Hi {first_name}", "Welcome to {product}, {first_name}!")
    assert render(t, {"first_name": "Ada", "product": "mailq"}) == ("Hi Ada", "Welcome to mailq, Ada!")


def test_placeholders():
    assert Template("x", "{a}", "{b} {a}").placeholders() == {"a", "b"}


def test_throttle_limits_within_window():
    clock = Clock()
    th = Throttle(limit=2, window=60, clock=clock)
    assert th.allow("a@x.com") and th.allow("a@x.com")
    assert not th.allow("a@x.com")
    clock.t += 61
    assert th.allow("a@x.com")


def test_next_delay_grows_and_gives_up():
    assert next_delay(0) < next_delay(3)
    with pytest.raises(GiveUp):
        next_delay(5)


def test_parse_dsn():
    dsn = "Final-Recipient: rfc822; Bob@Example.com\nAction: failed\nStatus: 5.1.1\n"
    b = parse_dsn(dsn)
    assert b.address == "bob@example.com" and b.hard


def test_bounce_tracker_counts():
    tr = BounceTracker()
    tr.record(parse_dsn("Final-Recipient: rfc822; c@x.com\nStatus: 4.2.2\n"))
    assert tr.count("C@x.com") == 1


def test_unsubscribed_not_queued():
    unsub = UnsubscribeList()
    unsub.add("Gone@Example.com")
    q = OutboundQueue(FakeSender(), unsubscribed=unsub)
    assert not q.enqueue(Message("gone@example.com", "s", "b"))


def test_temporary_failure_is_retried_later():
    clock = Clock()
    sender = FakeSender([451])
    q = OutboundQueue(sender, clock=clock)
    q.enqueue(Message("a@x.com", "s", "b"))
    assert q.run_once() == 0
    assert q.pending and q.pending[0].attempts == 1
    clock.t += 3600
    assert q.run_once() == 1


def test_permanent_failure_is_dead():
    q = OutboundQueue(FakeSender([550]))
    q.enqueue(Message("a@x.com", "s", "b"))
    q.run_once()
    assert len(q.dead) == 1 and not q.pending
