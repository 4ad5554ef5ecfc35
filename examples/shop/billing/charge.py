"""Charging a customer: validate, then write to the ledger."""

import time

from .ledger import Ledger

MAX_RETRIES = 3


def charge(ledger: Ledger, account: str, cents: int, gateway) -> str:
    if cents <= 0:
        raise ValueError("a charge must be positive")
    receipt = submit_with_retry(gateway, account, cents)
    ledger.append(account, -cents, f"charge {receipt}")
    return receipt


def submit_with_retry(gateway, account: str, cents: int) -> str:
    for attempt in range(MAX_RETRIES):
        try:
            return gateway.submit(account, cents)
        except TimeoutError:
            time.sleep(0.2 * (attempt + 1))
    raise TimeoutError(f"gateway did not answer after {MAX_RETRIES} tries")


def format_receipt(receipt: str, cents: int) -> str:
    return f"{receipt}: {cents // 100}.{cents % 100:02d}"
