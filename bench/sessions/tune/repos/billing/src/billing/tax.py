"""VAT by customer country (B2C rates; reverse charge for B2B is handeled by the caller)."""

VAT_RATES = {
    "DE": 19, "FR": 20, "NL": 21, "AT": 20, "IT": 22, "ES": 21, "PL": 23, "SE": 25,
}


def vat_rate(country: str) -> int:
    return VAT_RATES.get(country.upper(), 0)


def tax_for(country: str, net_minor: int) -> int:
    return round(net_minor * vat_rate(country) / 100)
