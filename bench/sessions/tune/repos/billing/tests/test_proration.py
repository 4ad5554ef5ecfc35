from datetime import datetime

from billing.plans import get_plan
from billing.proration import prorate


def test_upgrade_half_way():
    start, end = datetime(2026, 4, 1), datetime(2026, 5, 1)
    assert prorate(get_plan("starter"), get_plan("team"), start, end, datetime(2026, 4, 16)) == 2000


def test_downgrade_is_credit():
    start, end = datetime(2026, 4, 1), datetime(2026, 5, 1)
    assert prorate(get_plan("team"), get_plan("starter"), start, end, datetime(2026, 4, 16)) < 0
