"""infra/stripe_local as a real process beside a product server (tests only)."""

from pathlib import Path

from tests.support.local_service import LocalService

WEBHOOK_SECRET = "whsec_test_local"


class StripeLocal(LocalService):
    module = "infra.stripe_local"

    def __init__(self, webhook_url: str, log_path: Path) -> None:
        super().__init__(log_path)
        self.webhook_url = webhook_url

    def arguments(self) -> list[str]:
        return ["--webhook-url", self.webhook_url, "--webhook-secret", WEBHOOK_SECRET]

    def server_env(self) -> dict[str, str]:
        return {
            "STRIPE_API_BASE": self.url,
            "STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
            "STRIPE_SECRET_KEY": "sk_test_local",
        }
