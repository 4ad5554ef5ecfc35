"""What agent sessions decided, turned into candidate notes for review.

Owns: the observation log the hooks write (``observations``), reading agents' transcripts
(``transcript``), a session as an extractor sees it (``session``), the rule-based extractor
(``rules``), distillation of a session into proposals (``distill``), and the review queue
of candidates with accept / merge / dismiss (``candidates``).

Imports ``core`` only. Inside, imports run one way: ``candidates`` (which the others use for
its ``Evidence``) ← ``session`` ← ``rules`` ← ``distill``, which also reads ``observations``
and ``transcript``.
"""
