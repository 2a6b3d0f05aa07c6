"""The OIDC_PROVIDERS setting: clinic id -> its provider, as JSON (docs/operations.md,
"A clinic's identity provider"). Kept apart from realtime/oidc/config.py so the settings
module can read it without importing what needs the application state."""

from pydantic import BaseModel, ConfigDict, Field, SecretStr


class ProviderSetting(BaseModel):
    """One clinic's provider: `{"name", "issuer", "clientId", "clientSecret"?, "mfaAcr"?}`.
    The secret is a SecretStr: printing the settings never shows it."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    name: str = Field(min_length=1, max_length=80)
    issuer: str = Field(min_length=8, max_length=500)
    client_id: str = Field(alias="clientId", min_length=1, max_length=255)
    # None: a public client, proving itself by PKCE alone.
    client_secret: SecretStr | None = Field(default=None, alias="clientSecret")
    # `acr` values the provider sends for a multi-factor sign-in (besides `amr` "mfa").
    mfa_acr: list[str] = Field(default_factory=list, alias="mfaAcr")
