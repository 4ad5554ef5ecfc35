"""The SMTP adapter: hands messages to a relay."""

from __future__ import annotations

import smtplib
from dataclasses import dataclass

from mailq.message import Message


@dataclass
class SendResult:
    ok: bool
    code: int
    detail: str = ""


class SmtpSender:
    def __init__(self, host: str, port: int = 587, username: str | None = None, password: str | None = None,
                 timeout: float = 30.0, factory=smtplib.SMTP):
        self.host, self.port = host, port
        self.username, self.password = username, password
        self.timeout = timeout
        self.factory = factory
        self._conn: smtplib.SMTP | None = None

    def connect(self) -> smtplib.SMTP:
        if self._conn is None:
            conn = self.factory(self.host, self.port, timeout=self.timeout)
            conn.ehlo()
            if self.username:
                conn.login(self.username, self.password or "")
            conn.starttls()
            self._conn = conn
        return self._conn

    def deliver(self, message: Message) -> SendResult:
        conn = self.connect()
        try:
            refused = conn.sendmail(message.sender, [message.to], message.as_mime())
        except smtplib.SMTPRecipientsRefused as exc:
            code, detail = exc.recipients[message.to]
            return SendResult(False, code, detail.decode(errors="replace"))
        except smtplib.SMTPResponseException as exc:
            return SendResult(False, exc.smtp_code, exc.smtp_error.decode(errors="replace"))
        if refused:
            code, detail = refused[message.to]
            return SendResult(False, code, detail.decode(errors="replace"))
        return SendResult(True, 250)

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.quit()
            finally:
                self._conn = None
