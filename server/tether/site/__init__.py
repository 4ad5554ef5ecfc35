"""A static site of the workspace's notes, for the people who read them rather than the code.

Owns: the pages (``pages``: a home page with counts and what needs attention, a page per
source file with its notes beside the code they are tied to, a page per note with its
history, a decision timeline, a search index) rendered from the Jinja2 templates and static
files beside this module, and the syntax highlighting of code excerpts (``highlight``,
tree-sitter's own parse, no highlighter library).

Imports ``core`` only: the findings of ``checks`` and the pending candidates of ``capture``
come in as their documented JSON shapes, gathered by the face that builds the site.
"""
