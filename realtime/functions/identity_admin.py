"""identityProvider-read and identityProvider-update: the clinic's own OpenID Connect provider
as its administrators see and set it on /staff/identity (docs/protocol.md, "Identity
provider").

Clinic administrators of that clinic only, authorized before the input is validated, as
every staff call. The client secret is write-only: no reply and no audit entry ever holds
it, only whether one is set. A provider named by the OIDC_PROVIDERS setting wins and is
shown read-only (an edit is refused saying so). An edit is a compare-and-set on the row's
`version` under its lock, as service-update's: an edit made against an older version is
answered with the current values. Its issuer is asked for its discovery document before
anything is saved (realtime/oidc/admin_rules.py), outside the transaction. Turning the
provider off lets the clinic's staff sign in by e-mail link again; sessions signed in
through a provider no longer configured end at their next check (realtime/oidc/recheck.py).
Audited as `identityProvider.update`.
"""

from typing import Annotated, Any

from pydantic import Field, StringConstraints

from realtime import audit
from realtime.changes import changing
from realtime.dispatch import CallContext, callable_function, validated
from realtime.errors import FunctionError, stale_edit
from realtime.functions.inputs import Id, Input
from realtime.functions.staff import raw
from realtime.oidc.admin_rules import (
    Keep,
    Settled,
    check_issuer,
    refuse_private_issuer,
    settled,
)
from realtime.oidc.config import from_settings
from realtime.oidc.flow import redirect_uri
from realtime.oidc.sealing import Unreadable, seal, unseal
from realtime.rules import require_staff
from realtime.state import AppState
from storage.models import ClinicIdentityProvider
from storage.repo_oidc import add_workspace_provider, lock_workspace_provider, workspace_provider
from storage.repo_staff import lock_clinic
from storage.types import iso, utcnow

SET_BY_SETTING = (
    "This clinic's sign-in service is set by the server's OIDC_PROVIDERS setting, which wins. "
    "Ask the operators of the booking system to change it."
)
STALE_MESSAGE = "Someone else changed the sign-in service meanwhile. Here are the current values."
# Loose bounds that only keep oversized input out; the rules (with their codes) are exact.
Text = Annotated[str, StringConstraints(max_length=2000)]


def _secret_of(state: AppState, row: ClinicIdentityProvider) -> str | None:
    """The stored secret, or None when there is none or this SECRET_KEY cannot open it."""
    if row.client_secret_sealed is None:
        return None
    try:
        return unseal(state.settings.secret_key, row.client_secret_sealed)
    except Unreadable:
        return None


def provider_wire(
    state: AppState, clinic_id: str, row: ClinicIdentityProvider | None
) -> dict[str, Any]:
    """The read's reply: the provider in force and where it comes from, never the secret."""
    answer: dict[str, Any] = {
        "redirectUri": redirect_uri(state),
        "version": 0 if row is None else row.version,
        "source": None,
        "provider": None,
    }
    configured = from_settings(state.settings, clinic_id)
    if configured is not None:
        answer["source"] = "settings"
        answer["provider"] = {
            "name": configured.name,
            "issuer": configured.issuer,
            "clientId": configured.client_id,
            "mfaAcr": sorted(configured.mfa_acr),
            "enabled": True,
            "secretSet": configured.client_secret is not None,
            "updated": None,
        }
    elif row is not None:
        answer["source"] = "workspace"
        answer["provider"] = {
            "name": row.name,
            "issuer": row.issuer,
            "clientId": row.client_id,
            "mfaAcr": list(row.mfa_acr),
            "enabled": row.enabled,
            "secretSet": _secret_of(state, row) is not None,
            "updated": iso(row.updated),
        }
    return answer


class ProviderRead(Input):
    clinicId: Id


@callable_function("identityProvider-read", ProviderRead, authorize_first=True)
async def identity_provider_read(context: CallContext, data: Any) -> dict[str, Any]:
    require_staff(context.identity, raw(data, "clinicId"), admin=True)
    request = validated(ProviderRead, data)
    async with context.state.db.read() as session:
        row = await workspace_provider(session, clinic_id=request.clinicId)
    return provider_wire(context.state, request.clinicId, row)


class ProviderUpdate(Input):
    clinicId: Id
    version: int
    name: Text
    issuer: Text
    clientId: Text
    # Absent: the stored secret is kept; null: none (a public client, PKCE alone).
    clientSecret: Text | None = None
    mfaAcr: Annotated[list[Text], Field(max_length=50)] = []
    enabled: bool


def _settled(state: AppState, request: ProviderUpdate) -> Settled:
    given = "clientSecret" in request.model_fields_set
    return settled(
        name=request.name,
        issuer=request.issuer,
        client_id=request.clientId,
        secret=request.clientSecret if given else Keep(),
        mfa_acr=request.mfaAcr,
        enabled=request.enabled,
        production=state.settings.app_env == "production",
    )


def _fields(row: ClinicIdentityProvider | None) -> dict[str, Any]:
    if row is None:
        return {}
    return {
        "name": row.name,
        "issuer": row.issuer,
        "clientId": row.client_id,
        "mfaAcr": list(row.mfa_acr),
        "enabled": row.enabled,
    }


def _secret_change(old: str | None, had_one: bool, new: Keep | str | None) -> str | None:
    """What happens to the secret, for the audit log (never the secret itself)."""
    if isinstance(new, Keep) or new == old:
        return None
    if new is None:
        return "removed" if had_one else None
    return "replaced" if had_one else "set"


def _changes(state: AppState, row: ClinicIdentityProvider | None, edit: Settled) -> dict[str, Any]:
    """The audit detail of the edit: each field that changes, before and after, and what
    happens to the secret; empty when nothing changes."""
    after = {
        "name": edit.name,
        "issuer": edit.issuer,
        "clientId": edit.client_id,
        "mfaAcr": edit.mfa_acr,
        "enabled": edit.enabled,
    }
    before = _fields(row)
    changes = {
        field: {"before": before.get(field), "after": value}
        for field, value in after.items()
        if before.get(field) != value
    }
    had_one = row is not None and row.client_secret_sealed is not None
    old = None if row is None else _secret_of(state, row)
    secret = _secret_change(old, had_one, edit.secret)
    detail: dict[str, Any] = {}
    if changes:
        detail["changes"] = changes
    if secret is not None:
        detail["secret"] = secret
    return detail


def _apply(
    state: AppState,
    row: ClinicIdentityProvider,
    edit: Settled,
    who_uid: str,
) -> None:
    row.name, row.issuer, row.client_id = edit.name, edit.issuer, edit.client_id
    row.mfa_acr, row.enabled = edit.mfa_acr, edit.enabled
    if not isinstance(edit.secret, Keep):
        row.client_secret_sealed = (
            None if edit.secret is None else seal(state.settings.secret_key, edit.secret)
        )
    row.updated, row.updated_by = utcnow(), who_uid
    row.version += 1


@callable_function("identityProvider-update", ProviderUpdate, authorize_first=True)
async def identity_provider_update(context: CallContext, data: Any) -> dict[str, Any]:
    """Set, change or turn off the clinic's provider (clinic administrators)."""
    state = context.state
    who = require_staff(context.identity, raw(data, "clinicId"), admin=True)
    request = validated(ProviderUpdate, data)
    clinic_id = request.clinicId
    if from_settings(state.settings, clinic_id) is not None:
        raise FunctionError("PERMISSION_DENIED", SET_BY_SETTING, {"reason": "setting"})
    edit = _settled(state, request)
    if edit.enabled:
        if state.settings.app_env == "production" and not state.settings.oidc_private_issuers:
            await refuse_private_issuer(edit.issuer)
        await check_issuer(state.oidc, edit.issuer)  # a network call: before the lock
    async with changing(state) as change, state.db.write() as session:
        # The clinic's row first: two first saves (no provider row to lock yet) queue here,
        # and the second is told the first's version instead of hitting the unique key.
        await lock_clinic(session, clinic_id=clinic_id)
        row = await lock_workspace_provider(session, clinic_id=clinic_id)
        current = provider_wire(state, clinic_id, row)
        if request.version != current["version"]:
            raise stale_edit(STALE_MESSAGE, current["version"], current)
        detail = _changes(state, row, edit)
        if detail:
            fresh = row is None
            if row is None:
                row = ClinicIdentityProvider(
                    clinic_id=clinic_id,
                    name="",
                    issuer="",
                    client_id="",
                    updated=utcnow(),
                    updated_by=who.uid,
                    version=0,
                )
            _apply(state, row, edit, who.uid)
            if fresh:
                await add_workspace_provider(session, row=row)
            await session.flush()
            await audit.record(
                session,
                who,
                change=change,
                clinic_id=clinic_id,
                action=audit.IDENTITY_PROVIDER_UPDATE,
                detail=detail,
                address=context.client_ip,
            )
        answer = provider_wire(state, clinic_id, row)
    return answer
