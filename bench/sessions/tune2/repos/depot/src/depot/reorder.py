def reorder_point(daily_demand, lead_time_days):
    return daily_demand * lead_time_days


def needs_reorder(ledger, sku, daily_demand, lead_time_days):
    return ledger.available(sku) <= reorder_point(daily_demand, lead_time_days)
