"""The cyclic collector while the program starts.

Starting the app makes a few hundred thousand long-lived objects (Textual, Rich, the
product's own tables); the collector walks all of them again each time a generation fills
up while they are being made, about 70 ms before the app's first frame. The console entry
pauses it before anything is imported; the program resumes it once it is running, with the
start-up heap frozen (``gc.freeze``) so that later collections do not walk it either; the
review app freezes again once every server is graded (:func:`settle_heap`).
"""

from __future__ import annotations

import gc

_paused = False
_owned = False
"""Whether the console entry paused the collector: the collector is then the program's to
tune; in any other host (an embedding program, a test run) it is left alone."""


def pause_collector() -> None:
    """Switch the collector off until :func:`resume_collector` (the console entry only)."""
    global _paused, _owned
    if gc.isenabled():
        gc.disable()
        _paused = _owned = True


def resume_collector() -> None:
    """Freeze what start-up made and switch the collector back on, if it was paused here.

    A collector switched off by someone else (an embedding program, a test) stays off."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()


def settle_heap() -> None:
    """Collect once and freeze what a loaded review holds (the program's collector only).

    The graded reports of a review (thousands of changes with their diffs) live until the app
    quits; unfrozen, every full collection walks them again, a pause of tens of milliseconds
    in the middle of a keypress. Called once loading is over; the one collection first keeps
    the garbage made while loading out of the frozen heap.
    """
    if _owned and gc.isenabled():
        gc.collect()
        gc.freeze()
