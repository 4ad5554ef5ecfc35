"""What everything stands on: a workspace's notes and where their anchors are now.

Text and positions (``text``), languages as data and parsing (``languages``, ``syntax``),
structural anchors and their within-file resolution (``anchors``), notes and their file
format, an invariant's checks included (``notes``), the LMDB store (``store``), the note
repository that keeps files and index in step and watches the folder (``repository``),
anchors resolved per file with their last resolution kept (``resolution``), the workspace's
files and paths (``files``), live documents (``live``), work shared over cores (``fork``),
plain data classes without the cost of importing ``dataclasses`` (``records``), and the one
service the rest calls (``workspace``).

core imports nothing else of tether: the subsystems (``checks``, ``context``, ``capture``)
and the faces (``cli``, ``lsp``, ``mcp``, ``agents``) import it.
"""
