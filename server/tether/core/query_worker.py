"""The process that runs written check queries for ``checks.evaluate_bounded``: one JSON
request a line in, one answer a line out. It is killed when a query runs past its time,
so a pathological query costs a timeout, not a hang."""

import sys

import orjson

from .checks import check_from_dict, evaluate
from .languages import by_name
from .syntax import SourceFile


def serve(requests, answers) -> None:
    for line in requests:
        req = orjson.loads(line)
        found, cut = evaluate(check_from_dict(req["check"]), SourceFile(req["text"], by_name(req["lang"])),
                              tuple(req["scope"]) if req["scope"] else None)
        answers.write(orjson.dumps({"found": [[list(v.range), v.message] for v in found], "cut": cut}) + b"\n")
        answers.flush()


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
