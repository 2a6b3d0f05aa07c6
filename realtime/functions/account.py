"""account-erase: the signed-in person withdraws consent and has their data deleted
(realtime/booking/erase.py; docs/protocol.md, "Erasure and retention")."""

from typing import Any

from realtime.booking.erase import erase_account
from realtime.dispatch import CallContext, callable_function, validated
from realtime.errors import no_access
from realtime.functions.inputs import Input
from realtime.rules import require_identity


class AccountErase(Input):
    """No input: the caller's own account is the only one it erases."""


@callable_function("account-erase", AccountErase, authorize_first=True)
async def account_erase(context: CallContext, data: Any) -> dict[str, Any]:
    """A client only: signed out 401, staff 403 (a staff account is the clinic's), both
    before the input is looked at. The reply reaches the caller before their sessions
    close."""
    who = require_identity(context.identity)
    if who.is_staff:
        raise no_access()
    validated(AccountErase, data)
    await erase_account(context.state, who)
    return {"erased": True}
