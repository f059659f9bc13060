"""The cyclic collector while the program starts.

Starting the app makes a few hundred thousand long-lived objects (Textual, Rich, the
product's own tables); the collector walks all of them again each time a generation fills
up while they are being made, about 70 ms before the app's first frame. The console entry
pauses it before anything is imported; the program resumes it once it is running, with the
start-up heap frozen (``gc.freeze``) so that later collections do not walk it either.
"""

from __future__ import annotations

import gc

_paused = False


def pause_collector() -> None:
    """Switch the collector off until :func:`resume_collector` (the console entry only)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_collector() -> None:
    """Freeze what start-up made and switch the collector back on, if it was paused here.

    A collector switched off by someone else (an embedding program, a test) stays off."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
