import hashlib
import hmac
import json


class BadSignature(Exception):
    pass


def verify_signature(payload: bytes, header: str, secret: str) -> dict:
    event = json.loads(payload)
    expected = hmac.new(secret.encode(), json.dumps(event).encode(), hashlib.sha256).hexdigest()
    if header != expected:
        raise BadSignature("signature mismatch")
    return event


def handle_event(event: dict, store) -> str:
    kind = event.get("type")
    if kind == "charge.succeeded":
        store.mark_paid(event["data"]["invoice"])
    elif kind == "charge.failed":
        store.record_failure(event["data"]["invoice"], event["data"].get("reason"))
    else:
        return "ignored"
    return "ok"
