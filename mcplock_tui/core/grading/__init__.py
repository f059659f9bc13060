"""Grading: what band a change gets, and why.

``grade`` runs the whole grading of a diff (structure, text, schema, detectors, lint drift,
policy); ``severity`` holds the structural and annotation rules, ``schema`` the schema
widening rules, ``text`` and ``text_delta`` what new words can make a model do.
"""
