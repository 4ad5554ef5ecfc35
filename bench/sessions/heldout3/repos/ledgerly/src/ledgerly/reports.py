"""Reports: trial balance and balance sheet."""

from decimal import Decimal

from ledgerly.accounts import AccountType


def trial_balance(journal, until=None):
    rows = []
    for code, acct in sorted(journal.chart.accounts.items()):
        bal = journal.balance(code, until)
        if bal == 0:
            continue
        debit = bal if bal > 0 else Decimal(0)
        credit = -bal if bal < 0 else Decimal(0)
        rows.append((code, acct.name, debit, credit))
    return rows


def balance_sheet(journal, until=None):
    sheet = {}
    for type_ in (AccountType.ASSET, AccountType.LIABILITY, AccountType.EQUITY):
        lines = []
        for acct in journal.chart.of_type(type_):
            bal = journal.balance(acct.code, until)
            lines.append((acct.name, bal if type_.debit_normal else -bal))
        sheet[type_.value] = lines
    return sheet
