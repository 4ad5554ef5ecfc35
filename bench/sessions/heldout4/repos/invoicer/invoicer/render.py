"""An invoice as plain text (for the email body) and as HTML (for the customer portal)."""

from __future__ import annotations

from invoicer.invoice import Invoice
from invoicer.lines import line_total
from invoicer.money import format_amount
from invoicer.tax import rule_for

WIDTH = 60


def _row(left: str, right: str) -> str:
    return f"{left[: WIDTH - len(right) - 1]:<{WIDTH - len(right)}}{right}"


def render_text(inv: Invoice) -> str:
    cur = inv.currency
    out = [f"Invoice {inv.number or '(draft)'}", f"Bill to: {inv.customer}"]
    if inv.issued:
        out.append(f"Issued: {inv.issued.isoformat()}   Due: {inv.due.isoformat()}")
    out.append("-" * WIDTH)
    for line in inv.lines:
        out.append(_row(f"{line.quantity} x {line.description}", format_amount(line_total(line), cur)))
    out.append("-" * WIDTH)
    out.append(_row("Subtotal", format_amount(inv.subtotal, cur)))
    if inv.discount:
        out.append(_row("Discount", format_amount(-inv.discount, cur)))
    out.append(_row(rule_for(inv.region).label, format_amount(inv.tax, cur)))
    out.append(_row("Total", format_amount(inv.total, cur)))
    return "\n".join(out) + "\n"


def render_html(inv: Invoice) -> str:
    cur = inv.currency
    rows = "".join(
        f"<tr><td>{line.quantity}</td><td>{line.description}</td>"
        f"<td class=\"num\">{format_amount(line_total(line), cur)}</td></tr>"
        for line in inv.lines
    )
    return (
        f"<section class=\"invoice\">\n"
        f"<h1>Invoice {inv.number or '(draft)'}</h1>\n"
        f"<p class=\"bill-to\">{inv.customer}</p>\n"
        f"<table>{rows}</table>\n"
        f"<p class=\"total\">Total: {format_amount(inv.total, cur)}</p>\n"
        f"</section>\n"
    )
