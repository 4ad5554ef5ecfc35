"""How honest tether's token count is: ``estimate_tokens`` against real tokenizers.

    python bench/tokens.py SCENARIO_DIR... [--cache DIR] [--touches N]

The budget of ``tether context`` (and of every hook and the proxy) is in tokens, counted by
``tether.context.ranking.estimate_tokens``, an estimate. This script installs two real
tokenizers with npm into ``--cache`` (OpenAI's o200k_base from ``gpt-tokenizer``, the one
Anthropic published as ``@anthropic-ai/tokenizer``), and counts with them, with the estimate
and with two rules of thumb (1.3 tokens a word, as the context benchmark's scorer counts a
note; a quarter of the characters) three kinds of text: the Markdown ``context_for`` hands
over for each touch of the scenarios (notes recorded and the changes applied as
``bench/context.py`` does, each touch at its own budget), the notes' own title and body, and
the paragraphs of the project's ``docs/``. Real = the larger of the two real counts. It
prints, per kind, each count's total over the real one and the 5th/50th/95th percentiles of
the per-text ratio, then the answers whose real count is over their budget and what the
answer costs beyond its notes' title and body.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import context as C  # noqa: E402  (bench/context.py: the harness's recording and changes)

from tether.context.ranking import estimate_tokens  # noqa: E402

TOKENIZERS = ["gpt-tokenizer@4.0.0", "@anthropic-ai/tokenizer@0.0.4"]
COUNT_JS = """
const {encode} = require('gpt-tokenizer/encoding/o200k_base');
const {countTokens} = require('@anthropic-ai/tokenizer');
const lines = require('fs').readFileSync(0, 'utf8').split('\\n').filter(Boolean);
for (const l of lines) { const t = JSON.parse(l); console.log(JSON.stringify([encode(t).length, countTokens(t)])); }
"""


def install(cache: Path) -> None:
    if all((cache / "node_modules" / name.rsplit("@", 1)[0]).is_dir() for name in TOKENIZERS):
        return
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "package.json").write_text('{"private": true}')
    subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", *TOKENIZERS], cwd=cache, check=True)


def real_counts(cache: Path, texts: list[str]) -> list[int]:
    out = subprocess.run(["node", "-e", COUNT_JS], cwd=cache, check=True, capture_output=True, text=True,
                         input="\n".join(json.dumps(t) for t in texts) + "\n").stdout
    return [max(json.loads(line)) for line in out.splitlines()]


def handed(dirs: list[str], per: int) -> tuple[list[str], list[str], list[tuple[int, str, float]]]:
    """The Markdown of each touch's answer, the notes' title and body, and per answer
    (budget, its Markdown, the scorer's count of its notes)."""
    answers, notes, rows = [], [], []
    for sc in C.scenarios(dirs):
        spec = json.loads((sc / "scenario.json").read_text())
        by_key = {n["key"]: n for n in spec["notes"]}
        notes += [f"{n['title']} {n['body']}" for n in spec["notes"]]
        with tempfile.TemporaryDirectory(prefix="tether-tok-") as tmp:
            root = Path(tmp) / "ws"
            shutil.copytree(sc / "workspace", root)
            ws, _ = C.Workspace.init(root, exact=True)
            ids = C.record_all(ws, spec["notes"])
            C.apply_changes(root, spec.get("changes", []))
            for t in spec["touches"][:per]:
                budget = t.get("budget") or spec.get("budget") or C.DEFAULT_BUDGET
                ctx = C.context_for(ws, t["path"], t["line"] - 1, budget=budget)
                md = ctx.to_markdown()
                answers.append(md)
                words = sum(len(f"{by_key[ids[i.note.id]]['title']} {by_key[ids[i.note.id]]['body']}".split())
                            for i in ctx.items)
                rows.append((budget, md, 1.3 * words))
            ws.close()
    return answers, notes, rows


def docs() -> list[str]:
    paras = []
    for f in sorted((Path(__file__).resolve().parents[1] / "docs").glob("*.md")):
        ps = [p for p in f.read_text().split("\n\n") if len(p) > 40]
        paras += ["\n\n".join(ps[i:i + 4]) for i in range(0, len(ps), 4)]
    return paras


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dirs", nargs="+", metavar="SCENARIO_DIR")
    p.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "tether-tokenizers")
    p.add_argument("--touches", type=int, default=40, help="touches a scenario (default 40)")
    args = p.parse_args()
    install(args.cache)
    answers, notes, rows = handed(args.dirs, args.touches)
    kinds = {"answers (Markdown handed over)": answers, "notes (title and body)": notes, "docs/ paragraphs": docs()}
    rules = {"estimate_tokens": estimate_tokens, "1.3 a word": lambda t: 1.3 * len(t.split()),
             "chars / 4": lambda t: len(t) / 4}
    real = {k: real_counts(args.cache, v) for k, v in kinds.items()}
    print(f"{'text':<32}{'n':>5}  " + "".join(f"{r + ' / real':>26}" for r in rules))
    print(f"{'':<39}" + "".join(f"{'total  p5   p50   p95':>26}" for _ in rules))
    for k, texts in kinds.items():
        cells = []
        for f in rules.values():
            ratios = [f(t) / r for t, r in zip(texts, real[k]) if r]
            cells.append(f"{sum(map(f, texts)) / sum(real[k]):.3f} {C.pct(ratios, .05):.2f}  {C.pct(ratios, .5):.2f}  "
                         f"{C.pct(ratios, .95):.2f}")
        print(f"{k:<32}{len(texts):>5}  " + "".join(f"{c:>26}" for c in cells))
    cost = real[next(iter(kinds))]
    over = [(c, b) for (b, _, _), c in zip(rows, cost) if c > b]
    print(f"\nanswers over their budget by the real count: {len(over)} of {len(rows)}"
          + (f" (by {statistics.mean(c / b - 1 for c, b in over):.1%} on average)" if over else "") + "  (target 0)")
    print(f"real tokens of an answer / the scorer's count of its notes (1.3 x words of title and body): "
          f"{sum(cost) / sum(s for _, _, s in rows):.2f}; mean budget {statistics.mean(b for b, _, _ in rows):.0f}, "
          f"mean real tokens handed {statistics.mean(cost):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
