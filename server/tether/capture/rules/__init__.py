"""The rule-based extractor: deterministic, no model, every rule written down in the module
that applies it. Each module reads one thing, and says in its opening what and how:

- :mod:`.sentences` — one sentence of what the person or the agent wrote (the phrase rules);
- :mod:`.edits` — the session's edits: the code a statement is about, and comments the agent wrote;
- :mod:`.failures` — failed commands and reported bugs, then their fix (gotchas);
- :mod:`.options` — the options and questions the agent lays out;
- :mod:`.answers` — the person's replies to the agent, over turns;
- :mod:`.wording` — how each proposal is worded: one that would mislead as a hint is dropped;
- :mod:`.extractor` — every message in turn: the readers put together (:class:`RuleExtractor`);
- :mod:`.leads` — where the person may have settled what no rule reads, asked about at Stop.

Imports run one way, in that order (:mod:`.wording` imports only :mod:`.sentences`).
"""

from .extractor import RuleExtractor
from .leads import leads
from .sentences import classify, sentences
from .failures import gotchas
from .edits import anchor_refs

__all__ = ["RuleExtractor", "classify", "sentences", "gotchas", "anchor_refs", "leads"]
