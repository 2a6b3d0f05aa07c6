"""auth-identityProviders: which clinics' staff may sign in at their own identity provider
(docs/protocol.md, "Staff sign-in through the clinic's identity provider"). Public: the
sign-in screen offers "Sign in with <name>" before anyone is signed in; it names the clinic
and the provider, never an issuer, a client id or a secret."""

from typing import Any

from realtime.dispatch import CallContext, callable_function
from realtime.functions.inputs import Input
from realtime.oidc.config import offered


class IdentityProviders(Input):
    pass


@callable_function("auth-identityProviders", IdentityProviders)
async def identity_providers(context: CallContext, data: Any) -> dict[str, Any]:
    async with context.state.db.read() as session:
        providers = await offered(context.state.settings, session)
    return {"providers": providers}
