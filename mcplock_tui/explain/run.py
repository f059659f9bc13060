"""``--check --explain``: Claude's verdict on every change of a report.

Each change gets a :class:`Verdict` or an :class:`ExplainFailure` in ``Report.verdicts``
(by change id); nothing else in the report moves, so severity and the exit code are the
same with or without explain. A missing key is reported once on stderr, not per change, and
an authentication failure stops the remaining requests, which would fail the same way.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from mcplock_tui.core.canonical import visible
from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.report import Report
from mcplock_tui.core.verdict import Explained, ExplainFailure
from mcplock_tui.errors import ExplainError
from mcplock_tui.explain.base import ExplainAuthError, Explainer

WORKERS = 4
"""Few enough to stay under typical rate limits, enough that a dozen changes do not queue."""


def _fill(report: Report, answers: Iterable[Explained]) -> Report:
    """The report with the answers, in ``report.changes`` order, beside its changes."""
    verdicts = dict(zip((c.id for c in report.changes), answers, strict=True))
    return replace(report, verdicts=verdicts)


def explain_all(report: Report, explainer: Explainer) -> Report:
    """Ask ``explainer`` about every change; a failure is an :class:`ExplainFailure`."""
    changes = report.changes
    fatal: list[str] = []
    lock = threading.Lock()

    def one(change: GradedChange) -> Explained:
        with lock:
            if fatal:
                return ExplainFailure(fatal[0])
        try:
            return explainer.explain(change)
        except ExplainAuthError as exc:
            with lock:
                fatal.append(str(exc))
            return ExplainFailure(str(exc))
        except ExplainError as exc:
            return ExplainFailure(str(exc))
        except Exception as exc:  # advisory: a bug here must not cost the check its report
            return ExplainFailure(f"explain failed unexpectedly: {type(exc).__name__}: {exc}")

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        answers = list(pool.map(one, changes))
    return _fill(report, answers)


def explain_report(report: Report, args: argparse.Namespace) -> Report:
    """The report with a verdict for every change; never raises for explain failures."""
    if not report.changes:
        return report
    from mcplock_tui.explain.claude import AnthropicExplainer

    try:
        explainer = AnthropicExplainer(
            model=getattr(args, "model", None), server_names=[s.name for s in report.servers]
        )
    except ExplainError as exc:
        print(f"mcplock-tui: explain: {visible(str(exc))}", file=sys.stderr)
        return _fill(report, (ExplainFailure(str(exc)) for _ in report.changes))
    return explain_all(report, explainer)
