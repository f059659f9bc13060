"""Privacy and retention notes name what is withheld, omitted or deleted: that is what the
tool keeps back or what happens to stored data, not a new act on sensitive data."""

from __future__ import annotations

import pytest

from mcplock_tui.core.grading.text import text_reason
from mcplock_tui.core.model import Severity

BASE = (
    "Books a viewing of a flat for a tenant applicant with one or more agents. Sends the "
    "invitation to the applicant's address on file. Confirm the slot with the user first."
)

NOTES = {
    "denial-reaches-the-end-of-its-clause": BASE
    + " Agents never see the applicant's private home address or mobile phone number; "
    "they get the invitation through the agency calendar only.",
    "deleted-at-the-person's-request": BASE
    + " Applicants who asked for their records to be deleted are listed as redacted, with no "
    "name or contact details.",
}

READ = "Lists the viewings booked for a flat, with date, agent and applicant name."
READ_NOTES = {
    "lifecycle-step-after-a-retention-period": READ
    + " Viewings in the archive expire after 14 days and are then deleted.",
    "withheld-items-named": READ + " Private agent notes omitted.",
}

ACTS = {
    "phone-number-shared": BASE + " Agents see the applicant's mobile phone number, and "
    "they get the invitation through the agency calendar.",
    "denial-turned-by-but": BASE + " Agents never see the applicant's home address, but "
    "send them the applicant's mobile phone number.",
    "deleted-without-a-retention-period": BASE
    + " Invitations in the archive are then deleted for every applicant.",
    "deleted-on-a-reading-tool": READ + " Viewings in the archive are then deleted.",
}


@pytest.mark.parametrize("case", sorted(NOTES))
def test_a_privacy_or_retention_note_is_medium(case: str) -> None:
    reason = text_reason("tools/x/description", BASE, NOTES[case], "tool description")
    assert reason.severity == Severity.MEDIUM, reason.message


@pytest.mark.parametrize("case", sorted(READ_NOTES))
def test_a_note_on_a_reading_tool_is_medium(case: str) -> None:
    reason = text_reason("tools/x/description", READ, READ_NOTES[case], "tool description")
    assert reason.severity == Severity.MEDIUM, reason.message


@pytest.mark.parametrize("case", sorted(ACTS))
def test_an_act_on_the_same_data_is_still_high(case: str) -> None:
    reason = text_reason("tools/x/description", BASE, ACTS[case], "tool description")
    assert reason.severity == Severity.HIGH, reason.message


POLICY = "The library's lending policy: loan periods, fines and reservations."
NAMED_QUESTIONS = {
    "who-may": "The library's lending policy: loan periods, fines, reservations and who may "
    "borrow rare maps.",
    "when-may": "The library's lending policy: loan periods, fines, when a loan may be renewed "
    "and how reservations work.",
}
LEAVE = {
    "bare-may": POLICY + " Loans may be renewed without asking the member.",
    "may-beside-a-named-question": "The library's lending policy: loan periods, fines and who "
    "may borrow rare maps. The assistant may renew loans on its own.",
}


@pytest.mark.parametrize("case", sorted(NAMED_QUESTIONS))
def test_a_modal_in_a_question_the_text_covers_gives_no_leave(case: str) -> None:
    reason = text_reason("resources/0/description", POLICY, NAMED_QUESTIONS[case], "resource")
    assert reason.severity == Severity.MEDIUM, reason.message


@pytest.mark.parametrize("case", sorted(LEAVE))
def test_a_modal_that_gives_leave_still_flips(case: str) -> None:
    reason = text_reason("resources/0/description", POLICY, LEAVE[case], "resource")
    assert reason.severity == Severity.HIGH, reason.message
