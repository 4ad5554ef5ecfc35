FACTORS = {
    ("case", "each"): 12,
    ("pallet", "case"): 40,
    ("kg", "g"): 1000,
}


def convert(qty, src, dst):
    if src == dst:
        return qty
    if (src, dst) in FACTORS:
        return qty * FACTORS[(src, dst)]
    if (dst, src) in FACTORS:
        return qty / FACTORS[(dst, src)]
    raise ValueError(f"no conversion from {src} to {dst}")
