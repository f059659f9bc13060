"""Content builders for the app: server text made safe to show, diffs and report panels.

No widgets here: each function turns data into Textual ``Content`` (or blocks of it) that
a widget displays.
"""
