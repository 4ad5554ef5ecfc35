from dataclasses import dataclass, field

from .plans import get_plan
from .tax import tax_for


@dataclass
class InvoiceLine:
    description: str
    net_minor: int
    tax_minor: int = 0


@dataclass
class Invoice:
    number: str
    customer_id: str
    currency: str
    lines: list[InvoiceLine] = field(default_factory=list)

    @property
    def net(self) -> int:
        return sum(l.net_minor for l in self.lines)

    @property
    def tax(self) -> int:
        return sum(l.tax_minor for l in self.lines)

    @property
    def total(self) -> int:
        return self.net + self.tax


def next_invoice_number(last: str | None, year: int) -> str:
    if last is None or not last.startswith(f"INV-{year}-"):
        return f"INV-{year}-00001"
    return f"INV-{year}-{int(last.rsplit('-', 1)[1]) + 1:05d}"


def build_invoice(number: str, customer: dict, plan_code: str, extras: list[tuple[str, int]]) -> Invoice:
    plan = get_plan(plan_code)
    inv = Invoice(number, customer["id"], plan.currency)
    for desc, net in [(plan.name, plan.price_minor), *extras]:
        inv.lines.append(InvoiceLine(desc, net, tax_for(customer["country"], net)))
    return inv
