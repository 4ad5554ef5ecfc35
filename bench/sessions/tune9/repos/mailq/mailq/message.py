"""The unit of work: one rendered email to one recipient."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field


@dataclass
class Message:
    to: str
    subject: str
    body: str
    sender: str = "noreply@example.org"
    headers: dict[str, str] = field(default_factory=dict)
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    attempts: int = 0
    not_before: float = 0.0

    @classmethod
    def from_template(cls, to: str, subject_body: tuple[str, str], **kw) -> "Message":
        subject, body = subject_body
        return cls(to=to, subject=subject, body=body, **kw)

    @property
    def local_part(self) -> str:
        return self.to.rsplit("@", 1)[0]

    @property
    def domain(self) -> str:
        return self.to.rsplit("@", 1)[-1].lower()

    def as_mime(self) -> str:
        lines = [f"From: {self.sender}", f"To: {self.to}", f"Subject: {self.subject}",
                 f"Message-ID: <{self.id}@mailq>"]
        lines += [f"{k}: {v}" for k, v in sorted(self.headers.items())]
        return "\r\n".join(lines) + "\r\n\r\n" + self.body.replace("\n", "\r\n")
