"""Invariant checks and everything that needs a person's attention.

Owns: evaluating an invariant's checks on a parsed file (``engine``), the worker process
that runs written queries under a time limit (``worker``), and the findings every face
shows — the editor's diagnostics for one file, ``tether check`` over the workspace,
``tether doctor`` (``findings``). A check's format and its validation at record time are
part of the note file format (``core.notes``).

Imports ``core`` only.
"""
