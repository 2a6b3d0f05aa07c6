"""X-Forwarded-For counts only from the proxies named in FORWARDED_ALLOW_IPS."""

from pathlib import Path

import httpx
import pytest

from tests.conftest import unique_email
from tests.support.server import ServerProcess

LINKS_PER_IP = 2


async def link_statuses(server: ServerProcess, forwarded_for: list[str]) -> list[int]:
    """Ask for one sign-in link per entry, each claiming that client address."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        replies = [
            await http.post(
                "/functions/sendEmail-authLink",
                json={"data": {"email": unique_email("fwd")}},
                headers={"X-Forwarded-For": address},
            )
            for address in forwarded_for
        ]
    return [reply.status_code for reply in replies]


@pytest.mark.parametrize(
    ("trusted", "expected"),
    [
        (None, [200, 200, 429]),  # default: the header is ignored, all three are 127.0.0.1
        ("127.0.0.1", [200, 200, 200]),  # a trusted proxy: three different clients
    ],
)
async def test_forwarded_for_is_believed_only_from_trusted_proxies(
    tmp_path: Path, trusted: str | None, expected: list[int]
) -> None:
    env = {
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/fwd.db",
        "SIGN_IN_LINKS_PER_IP": str(LINKS_PER_IP),
    }
    if trusted is not None:
        env["FORWARDED_ALLOW_IPS"] = trusted
    server = ServerProcess(env=env, log_path=tmp_path / "fwd.log").start()
    try:
        spread = await link_statuses(server, ["198.51.100.1", "198.51.100.2", "198.51.100.3"])
        same = await link_statuses(server, ["203.0.113.9"] * (LINKS_PER_IP + 1))
    finally:
        server.stop()
    assert spread == expected
    assert same[-1] == 429  # one client stays limited either way
