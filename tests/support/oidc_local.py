"""infra/oidc_local as a real process beside product servers (tests only)."""

import json
import os
import secrets
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.support.server import ROOT, free_port

CLIENT_ID = "genecounsel-test"
CLIENT_SECRET = "oidc-local-test-secret"
PROVIDER_NAME = "Local IdP"


@dataclass
class OidcLocal:
    log_path: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "OidcLocal":
        self.port = free_port()
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "infra.oidc_local",
                "--port",
                str(self.port),
                "--client-id",
                CLIENT_ID,
                "--client-secret",
                CLIENT_SECRET,
            ],
            cwd=ROOT,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/_control/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise TimeoutError("oidc-local did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=10)
        if self.process is not None:
            self._log.close()
        self.process = None

    def server_env(self, clinic_id: str) -> dict[str, str]:
        """OIDC_PROVIDERS naming this provider for `clinic_id`."""
        setting = {
            "name": PROVIDER_NAME,
            "issuer": self.url,
            "clientId": CLIENT_ID,
            "clientSecret": CLIENT_SECRET,
        }
        return {"OIDC_PROVIDERS": json.dumps({clinic_id: setting})}

    async def control(self, method: str, path: str, **kwargs: Any) -> Any:
        async with httpx.AsyncClient(base_url=self.url) as http:
            reply = await http.request(method, f"/_control{path}", **kwargs)
        reply.raise_for_status()
        return reply.json()

    async def add_user(
        self, email: str, *, verified: bool = True, mfa: bool = False, sub: str | None = None
    ) -> str:
        """A user of the provider; returns their subject."""
        subject = sub or f"sub-{secrets.token_hex(6)}"
        amr = ["pwd", "otp", "mfa"] if mfa else ["pwd"]
        user = {"sub": subject, "email": email, "email_verified": verified, "amr": amr}
        await self.control("POST", "/users", json=user)
        return subject
