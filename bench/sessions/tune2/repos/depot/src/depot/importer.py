import csv

from depot.locations import parse_bin


def import_csv(path, ledger):
    count = 0
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            parse_bin(row["bin"])
            ledger.receive(row["sku"], int(row["qty"]))
            count += 1
    return count
