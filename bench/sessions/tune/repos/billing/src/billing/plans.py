from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Plan:
    code: str
    name: str
    price_minor: int
    currency: str
    interval_months: int = 1


PLANS = {
    "starter": Plan("starter", "Starter", 900, "EUR"),
    "team": Plan("team", "Team", 4900, "EUR"),
    "business": Plan("business", "Business", 19900, "EUR"),
    "team-yearly": Plan("team-yearly", "Team (yearly)", 49000, "EUR", interval_months=12),
}


def get_plan(code: str) -> Plan:
    try:
        return PLANS[code]
    except KeyError:
        raise ValueError(f"unknown plan {code!r}") from None


def next_period_end(start: date, months: int) -> date:
    month = start.month - 1 + months
    year = start.year + month // 12
    return start.replace(year=year, month=month % 12 + 1)
