"""The one state machine of an appointment's status.

Every status change of the server goes through `transition`; the client never sets a status
itself (the `status` field is not writable).

    draft ──submit (no price)──────────────> confirmed ──staff──> completed | no_show
      │ └─submit (price)─> pending_payment ──paid──┘
      │                      │  └─payment failed or expired─> draft
      │                      └─session and hold lapsed──────> expired
      └─(draft | pending_payment | confirmed) ──cancel──> cancelled

A pending payment whose checkout session ends while its hold still runs goes back to draft
(the person may pay again); once the hold itself lapses unpaid (realtime/jobs.py
expire-holds) it is `expired`. A draft whose hold lapses stays a draft. The four states with
no way out (cancelled, completed, no_show, expired) are ENDED: the person then starts a new
appointment, maybe from a copy of this one's answers (realtime/booking/rebook.py).
"""

from typing import Final

from realtime.contract import APPOINTMENT_STATUSES, APPOINTMENT_TRANSITIONS
from realtime.errors import FunctionError

# The moves above, kept in contract.json so that the client offers only allowed actions.
TRANSITIONS: Final[dict[str, frozenset[str]]] = APPOINTMENT_TRANSITIONS
assert set(TRANSITIONS) == set(APPOINTMENT_STATUSES), "contract.json and the machine disagree"

STAFF_OUTCOMES: Final[frozenset[str]] = frozenset({"completed", "no_show"})

# The end states: no move leads out of them (the client derives the same set from
# contract.json, client/src/booking/ended.ts).
ENDED: Final[frozenset[str]] = frozenset(s for s, targets in TRANSITIONS.items() if not targets)


def can_move(current: str, target: str) -> bool:
    return target in TRANSITIONS.get(current, frozenset())


def transition(current: str, target: str) -> str:
    """The new status, or ABORTED naming the refused move."""
    if not can_move(current, target):
        raise FunctionError(
            "ABORTED",
            f"An appointment that is {current} cannot become {target}.",
            {"status": current, "requested": target},
        )
    return target
