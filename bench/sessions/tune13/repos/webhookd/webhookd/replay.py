"""Replay dead letters: support picks a customer (and optionally events) and sends them again."""

from __future__ import annotations

from dataclasses import dataclass, field

from webhookd.deadletter import DeadLetterQueue
from webhookd.delivery import Deliverer, Event, new_event_id
from webhookd.subscriptions import SubscriptionStore


@dataclass
class ReplayReport:
    queued: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)


def replay(dlq: DeadLetterQueue, store: SubscriptionStore, deliverer: Deliverer, customer_id: str,
           event_ids: set[str] | None = None) -> ReplayReport:
    report = ReplayReport()
    for letter in dlq.list(customer_id):
        if event_ids is not None and letter.event_id not in event_ids:
            continue
        sub = store.get(letter.subscription_id)
        if sub is None:
            report.skipped[letter.event_id] = "subscription deleted"
            continue
        if not sub.active:
            report.skipped[letter.event_id] = "subscription inactive"
            continue
        event = Event(id=new_event_id(), type=letter.event_type, payload=letter.payload)
        deliverer.enqueue(sub, event)
        dlq.remove(letter.event_id, letter.subscription_id)
        report.queued.append(event.id)
    return report


def summarize(report: ReplayReport) -> str:
    """One line for the support CLI."""
    line = f"{len(report.queued)} queued"
    if report.skipped:
        reasons: dict[str, int] = {}
        for why in report.skipped.values():
            reasons[why] = reasons.get(why, 0) + 1
        line += ", skipped: " + ", ".join(f"{n} {why}" for why, n in sorted(reasons.items()))
    return line
