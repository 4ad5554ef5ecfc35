from __future__ import annotations

import logging

import httpx

log = logging.getLogger(__name__)


class SlackNotifier:
    def __init__(self, webhook_url: str | None):
        self.webhook_url = webhook_url

    def summary_text(self, source: str, new: list[str], changed: list[str]) -> str:
        lines = [f"*{source}*: {len(new)} new, {len(changed)} changed"]
        lines += [f"• {t}" for t in new[:20]]
        if changed:
            lines.append("_changed:_")
            lines += [f"• {t}" for t in changed[:20]]
        return "\n".join(lines)

    def send(self, source: str, new: list[str], changed: list[str]) -> None:
        if not self.webhook_url:
            log.info("no slack webhook configured; skipping")
            return
        if not new and not changed:
            return
        resp = httpx.post(self.webhook_url, json={"text": self.summary_text(source, new, changed)}, timeout=10)
        if resp.status_code != 200:
            log.error("slack said %s: %s", resp.status_code, resp.text)
