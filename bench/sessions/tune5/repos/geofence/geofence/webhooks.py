"""Deliver events to the customer's webhook URL."""

from __future__ import annotations

import json
import logging
import urllib.request

from geofence.events import Event

log = logging.getLogger(__name__)


def build_payload(ev: Event) -> dict:
    return {"type": ev.kind, "device_id": ev.device_id, "fence_id": ev.fence_id, "at": ev.at}


class WebhookSender:
    def __init__(self, urls: dict[str, str], timeout: float = 5.0):
        self.urls = urls  # customer_id -> url
        self.timeout = timeout

    def send(self, customer_id: str, ev: Event) -> bool:
        url = self.urls.get(customer_id)
        if url is None:
            return False
        body = json.dumps(build_payload(ev)).encode()
        req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                return 200 <= resp.status < 300
        except OSError as e:
            log.warning("webhook to %s failed: %s", url, e)
            return False
