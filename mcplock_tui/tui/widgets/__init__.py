"""Widgets and the Content builders they draw with; server text only ever enters via safe_text."""
