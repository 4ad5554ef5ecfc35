"""The notes an agent or a person needs at a place in the code.

Owns: ranking the notes that apply at a line within a token budget and writing them as
Markdown (``ranking``), resolving what the code there calls to definitions elsewhere in the
workspace, with the per-file symbol table kept in the store (``calls``), and finding notes
by what they say (``search``).

Imports ``core`` only.
"""
