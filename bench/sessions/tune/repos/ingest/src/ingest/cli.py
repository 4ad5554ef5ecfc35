import argparse
import sys
from pathlib import Path

from .config import load_config
from .normalize import normalize_row
from .readers import read_any
from .sink import SqliteSink


def cmd_run(args) -> int:
    cfg = load_config(args.config)
    sink = SqliteSink(cfg.database)
    total = 0
    for path in sorted(cfg.inbox.glob("*")):
        rows = [normalize_row(r, cfg.columns) for r in read_any(path, cfg.delimiter)]
        total += sink.write_batch(rows)
    sink.commit()
    sink.close()
    print(f"loaded {total} readings")
    return 0


def cmd_validate(args) -> int:
    cfg = load_config(args.config)
    bad = 0
    for path in sorted(cfg.inbox.glob("*")):
        for n, r in enumerate(read_any(path, cfg.delimiter), 1):
            try:
                normalize_row(r, cfg.columns)
            except ValueError as e:
                bad += 1
                print(f"{path.name}:{n}: {e}", file=sys.stderr)
    return 1 if bad else 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="meterload")
    p.add_argument("-c", "--config", type=Path, default=Path("meterload.toml"))
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("run", help="load everything in the inbox").set_defaults(fn=cmd_run)
    sub.add_parser("validate", help="check the inbox without loading").set_defaults(fn=cmd_validate)
    args = p.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
