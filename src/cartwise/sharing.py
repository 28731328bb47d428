"""Points where long blocking work lets other shoppers' work go first.

Threads share one GIL and, on a small machine, a core or two: a thread that needs 0.2 s of
Python (a pasted essay's lexical walk over most of the catalog) slows every other thread by
as much as it runs. The server's thread pool (`cartwise.api.fair`) installs a pause for each
job it runs; long loops call `let_others_run()` between bounded slices of their work, and a
job of a shopper who has been using far more than others pauses there while they run. Outside
that pool (the CLI, tests, ingest) nothing is installed and the call costs one attribute read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

__all__ = ["installed_pause", "let_others_run"]

_local = threading.local()


def let_others_run() -> None:
    """Between two slices of long work that holds no lock: maybe pause for other shoppers."""
    pause: Callable[[], None] | None = getattr(_local, "pause", None)
    if pause is not None:
        pause()


def installed_pause(pause: Callable[[], None] | None) -> None:
    """What `let_others_run` calls on this thread from now on (None: nothing)."""
    _local.pause = pause
