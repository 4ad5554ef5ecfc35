"""Thin client for the payment provider's REST API."""

import json
import urllib.request


class GatewayError(Exception):
    def __init__(self, status: int, body: str):
        super().__init__(f"gateway answered {status}: {body[:200]}")
        self.status = status


class GatewayClient:
    def __init__(self, base_url: str, api_key: str, timeout: float = 10.0):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout

    def _post(self, path: str, body: dict, headers: dict | None = None) -> dict:
        req = urllib.request.Request(self.base_url + path, data=json.dumps(body).encode(), method="POST")
        req.add_header("Authorization", f"Bearer {self.api_key}")
        req.add_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as e:
            raise GatewayError(e.code, e.read().decode(errors="replace")) from None

    def _get(self, path: str) -> dict:
        req = urllib.request.Request(self.base_url + path)
        req.add_header("Authorization", f"Bearer {self.api_key}")
        with urllib.request.urlopen(req, timeout=self.timeout) as resp:
            return json.loads(resp.read())

    def charge(self, customer_id: str, amount_minor: int, currency: str, idempotency_key: str) -> dict:
        return self._post("/v1/charges", {"customer": customer_id, "amount": amount_minor, "currency": currency},
                          {"Idempotency-Key": idempotency_key})
