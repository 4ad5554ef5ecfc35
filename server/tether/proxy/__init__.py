"""``tether proxy``: the interception face. A local HTTP server between an agent and its
model's API that forwards bytes unchanged, adds tether's notes for the files a tool call just
touched as one trailing block of the newest user message, and hands what passed to the same
capture pipeline the agent hooks feed.

Owns: each model API as a table (``apis``: where the conversation is, how a tool call names a
file, how a turn ends, what a compaction request says, the error shape), the byte-level
splice that adds a block to one message and nothing else (``inject``), what a request and a
response say (``exchange``), the consumer that writes the observation log and distils at a
turn's end (``capture``), and the pass-through core (``server``).

Imports ``core``, ``context``, ``capture`` and ``agents.hooks`` (the notes a touch gets, and
the once-per-session memory of what was given, are the hooks'); nothing imports it but the CLI.
"""
