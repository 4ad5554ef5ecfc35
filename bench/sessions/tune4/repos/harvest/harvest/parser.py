from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urljoin

from selectolax.parser import HTMLParser


@dataclass
class Listing:
    source: str
    external_id: str
    url: str
    title: str
    price: float | None
    location: str


_SPACES = re.compile(r"\s+")


def clean_text(s: str | None) -> str:
    return _SPACES.sub(" ", s or "").strip()


def parse_price(raw: str) -> float | None:
    digits = re.sub(r"[^\d.]", "", raw)
    if not digits:
        return None
    return float(digits)


def parse_listing_page(source: str, base_url: str, html: str) -> list[Listing]:
    tree = HTMLParser(html)
    out = []
    for card in tree.css("article.listing"):
        link = card.css_first("a.listing-link")
        if link is None:
            continue
        price_node = card.css_first(".price")
        out.append(Listing(
            source=source,
            external_id=card.attributes.get("data-id") or "",
            url=urljoin(base_url, link.attributes.get("href") or ""),
            title=clean_text(link.text()),
            price=parse_price(price_node.text()) if price_node else None,
            location=clean_text(card.css_first(".location").text() if card.css_first(".location") else ""),
        ))
    return out


def next_page_url(base_url: str, html: str) -> str | None:
    nxt = HTMLParser(html).css_first("a[rel=next]")
    return urljoin(base_url, nxt.attributes["href"]) if nxt and nxt.attributes.get("href") else None
