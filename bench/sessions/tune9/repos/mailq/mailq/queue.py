"""The outbound queue: holds messages until the throttle and the retry schedule let them go."""

from __future__ import annotations

import time

from mailq.bounces import BounceTracker
from mailq.message import Message
from mailq.retry import GiveUp, is_retryable, next_delay
from mailq.throttle import Throttle
from mailq.unsubscribe import UnsubscribeList


class OutboundQueue:
    def __init__(self, sender, throttle: Throttle | None = None, unsubscribed: UnsubscribeList | None = None,
                 bounces: BounceTracker | None = None, clock=time.time):
        self.sender = sender
        self.throttle = throttle or Throttle()
        self.unsubscribed = unsubscribed or UnsubscribeList()
        self.bounces = bounces or BounceTracker()
        self.clock = clock
        self.pending: list[Message] = []
        self.dead: list[Message] = []
        self.sent: list[Message] = []

    def enqueue(self, message: Message) -> bool:
        """Queue ``message``; False if its recipient unsubscribed."""
        if message.to in self.unsubscribed:
            return False
        self.pending.append(message)
        return True

    def due(self) -> list[Message]:
        now = self.clock()
        return [m for m in self.pending if m.not_before <= now]

    def run_once(self) -> int:
        """Try every due message once; returns how many were sent."""
        sent = 0
        for message in self.due():
            if not self.throttle.allow(message.to):
                continue
            result = self.sender.deliver(message)
            self.pending.remove(message)
            if result.ok:
                self.sent.append(message)
                sent += 1
            else:
                self._failed(message, result.code)
        return sent

    def _failed(self, message: Message, code: int) -> None:
        message.attempts += 1
        if not is_retryable(code):
            self.dead.append(message)
            return
        try:
            message.not_before = self.clock() + next_delay(message.attempts)
        except GiveUp:
            self.dead.append(message)
            return
        self.pending.append(message)
