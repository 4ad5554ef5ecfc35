"""Tax rules by region. A region is a country code, or 'US-<state>' for US sales tax."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from invoicer.lines import LineItem, line_total
from invoicer.money import round_minor


@dataclass(frozen=True)
class TaxRule:
    region: str
    standard: Decimal
    reduced: Decimal | None = None
    label: str = "VAT"


RULES: dict[str, TaxRule] = {
    "DE": TaxRule("DE", Decimal(0.19), Decimal(0.07)),
    "FR": TaxRule("FR", Decimal(0.20), Decimal(0.055)),
    "NL": TaxRule("NL", Decimal(0.21), Decimal(0.09), label="BTW"),
    "GB": TaxRule("GB", Decimal(0.20), Decimal(0.05)),
    "US-CA": TaxRule("US-CA", Decimal(0.0725), label="Sales tax"),
    "US-NY": TaxRule("US-NY", Decimal(0.04), label="Sales tax"),
}


class TaxError(LookupError):
    pass


def rule_for(region: str) -> TaxRule:
    try:
        return RULES[region]
    except KeyError:
        raise TaxError(f"no tax rule for region {region!r}") from None


def rate_for(region: str, tax_code: str) -> Decimal:
    if tax_code in ("exempt", "reverse_charge"):
        return Decimal(0)
    rule = rule_for(region)
    if tax_code == "reduced":
        if rule.reduced is None:
            raise TaxError(f"{region} has no reduced rate")
        return rule.reduced
    return rule.standard


def compute_tax(lines: list[LineItem], region: str) -> int:
    """The tax of an invoice's lines, in minor units."""
    total = 0
    for line in lines:
        total += round_minor(line_total(line) * rate_for(region, line.tax_code))
    return total


def needs_vat_id(lines: list[LineItem]) -> bool:
    """Reverse-charge lines are only allowed when the customer gave a VAT id."""
    return any(line.tax_code == "reverse_charge" for line in lines)
