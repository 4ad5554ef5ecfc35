import hashlib


def row_key(row: dict) -> str:
    raw = f"{row['meter_id']}|{row['read_at']}"
    return hashlib.sha1(raw.encode()).hexdigest()
