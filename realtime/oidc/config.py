"""Which clinics sign their staff in through a provider, and with which client credentials.

A clinic named in OIDC_PROVIDERS uses that one (the operator's word wins, and its secret
never touches the database); any other clinic uses the provider its clinic_admin set in the
workspace (`clinic_identity_providers`, secret sealed), if any and turned on. A provider
turned off or removed is no provider: the clinic's staff sign in by e-mail link again.
"""

from dataclasses import dataclass
from typing import Any, Literal

from realtime.oidc.sealing import Unreadable, unseal
from realtime.settings import Settings
from storage.db import AsyncSession
from storage.models import ClinicIdentityProvider
from storage.repo_catalog import get_clinic
from storage.repo_oidc import workspace_provider, workspace_providers

Source = Literal["settings", "workspace"]


@dataclass(frozen=True)
class Provider:
    clinic_id: str
    name: str
    issuer: str
    client_id: str
    client_secret: str | None  # None: a public client (PKCE alone)
    mfa_acr: frozenset[str]
    source: Source

    def __repr__(self) -> str:  # never the secret, in a log or a traceback
        return f"Provider(clinic_id={self.clinic_id!r}, issuer={self.issuer!r})"


def from_settings(settings: Settings, clinic_id: str) -> Provider | None:
    setting = settings.oidc_providers.get(clinic_id)
    if setting is None:
        return None
    secret = setting.client_secret.get_secret_value() if setting.client_secret else None
    return Provider(
        clinic_id=clinic_id,
        name=setting.name,
        issuer=setting.issuer,
        client_id=setting.client_id,
        client_secret=secret or None,
        mfa_acr=frozenset(setting.mfa_acr),
        source="settings",
    )


def _from_row(settings: Settings, row: ClinicIdentityProvider) -> Provider:
    secret = None
    if row.client_secret_sealed:
        try:
            secret = unseal(settings.secret_key, row.client_secret_sealed)
        except Unreadable:
            secret = None  # SECRET_KEY changed: the token endpoint will refuse; enter it again
    return Provider(
        clinic_id=row.clinic_id,
        name=row.name,
        issuer=row.issuer,
        client_id=row.client_id,
        client_secret=secret,
        mfa_acr=frozenset(row.mfa_acr),
        source="workspace",
    )


async def provider_of(settings: Settings, session: AsyncSession, clinic_id: str) -> Provider | None:
    configured = from_settings(settings, clinic_id)
    if configured is not None:
        return configured
    row = await workspace_provider(session, clinic_id=clinic_id)
    return None if row is None or not row.enabled else _from_row(settings, row)


async def offered(settings: Settings, session: AsyncSession) -> list[dict[str, Any]]:
    """Every clinic whose staff may sign in at a provider, for the public sign-in screen:
    the clinic's names and the provider's, nothing more."""
    names = {clinic_id: s.name for clinic_id, s in settings.oidc_providers.items()}
    for row in await workspace_providers(session):
        if row.enabled:
            names.setdefault(row.clinic_id, row.name)
    answer = []
    for clinic_id in sorted(names):
        clinic = await get_clinic(session, clinic_id=clinic_id)
        if clinic is not None:
            answer.append(
                {"clinicId": clinic_id, "clinicName": clinic.name, "name": names[clinic_id]}
            )
    return answer
