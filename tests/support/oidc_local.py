"""infra/oidc_local as a real process beside product servers (tests only)."""

import json
import secrets

from tests.support.local_service import LocalService

CLIENT_ID = "genecounsel-test"
CLIENT_SECRET = "oidc-local-test-secret"
PROVIDER_NAME = "Local IdP"


class OidcLocal(LocalService):
    module = "infra.oidc_local"

    def arguments(self) -> list[str]:
        return ["--client-id", CLIENT_ID, "--client-secret", CLIENT_SECRET]

    def server_env(self, clinic_id: str) -> dict[str, str]:
        """OIDC_PROVIDERS naming this provider for `clinic_id`."""
        setting = {
            "name": PROVIDER_NAME,
            "issuer": self.url,
            "clientId": CLIENT_ID,
            "clientSecret": CLIENT_SECRET,
        }
        return {"OIDC_PROVIDERS": json.dumps({clinic_id: setting})}

    async def add_user(
        self, email: str, *, verified: bool = True, mfa: bool = False, sub: str | None = None
    ) -> str:
        """A user of the provider; returns their subject."""
        subject = sub or f"sub-{secrets.token_hex(6)}"
        amr = ["pwd", "otp", "mfa"] if mfa else ["pwd"]
        user = {"sub": subject, "email": email, "email_verified": verified, "amr": amr}
        await self.control("POST", "/users", json=user)
        return subject
