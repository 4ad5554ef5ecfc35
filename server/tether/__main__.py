"""``python -m tether``; or, as agents' hook commands start tether (``agents/setup.py``:
:func:`~tether.agents.setup.hook_launcher`), this file run by path without ``site``:
``PYTHON -P -S …/tether/__main__.py hook AGENT --serve``. Then nothing but the interpreter's
own library is on ``sys.path``: the folder this package was installed in goes first (the path
was taken from the running tether when the command was written, never guessed), which is all a
hook the resident server answers imports; site runs when the command needs more
(``tether.cli.with_site``)."""

import sys

if not __package__:  # run by path: the folder holding this package (site-packages), not this one (-P);
    # __file__ is absolute (as Python makes a script's path) and os is not loaded yet (cli/client.py)
    sys.path.insert(0, __file__.rpartition("/")[0].rpartition("/")[0] or "/")

from tether.cli import main  # noqa: E402

raise SystemExit(main())
