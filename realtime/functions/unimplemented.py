"""Functions of the contract whose issue has not landed yet: they answer UNIMPLEMENTED."""

from typing import Any

from realtime.dispatch import CallContext, callable_function
from realtime.errors import FunctionError

PENDING = (
    "stripe-createCheckoutSession",
    "stripe-getSessionStatus",
)


async def _not_yet(context: CallContext, data: Any) -> Any:
    raise FunctionError("UNIMPLEMENTED", "This function is not available yet.")


for _name in PENDING:
    callable_function(_name)(_not_yet)
