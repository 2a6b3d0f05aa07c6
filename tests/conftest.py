"""Fixtures: the product as real server processes on SQLite and on PostgreSQL + Redis."""

import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.support.clients import Account, sign_in
from tests.support.databases import (
    REDIS_URL,
    create_postgres_database,
    drop_postgres_database,
    redis_namespace,
)
from tests.support.server import ServerProcess
from tests.support.stripe_local import StripeLocal

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("run")


@pytest_asyncio.fixture(scope="session")
async def postgres_database() -> AsyncIterator[tuple[str, str]]:
    name, url = await create_postgres_database()
    yield name, url
    await drop_postgres_database(name)


@pytest_asyncio.fixture(scope="module")
async def own_postgres_database() -> AsyncIterator[tuple[str, str]]:
    """A PostgreSQL database for a module's own server. Never give such a server the session's
    database: it has its own files folder, finds the demo documents missing there and stores
    them again (realtime/files.py `store_demo_documents`), and the session server's rows then
    name files it does not have (its downloads answer 404)."""
    name, url = await create_postgres_database()
    yield name, url
    await drop_postgres_database(name)


def with_payments(server: ServerProcess, run_dir: Path, name: str) -> Iterator[ServerProcess]:
    """Start `server` with its own infra/stripe_local sending webhooks to it."""
    payments = StripeLocal(
        webhook_url=f"{server.url}/stripe/webhook", log_path=run_dir / f"{name}-stripe.log"
    ).start()
    server.env = {**server.env, **payments.server_env()}
    server.payments = payments
    server.start()
    yield server
    server.stop()
    payments.stop()


@pytest.fixture(scope="session")
def sqlite_server(run_dir: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(
        env={"DATABASE_URL": f"sqlite+aiosqlite:///{run_dir / 'app.db'}"},
        log_path=run_dir / "sqlite-server.log",
    )
    yield from with_payments(server, run_dir, "sqlite")


@pytest.fixture(scope="session")
def postgres_server(run_dir: Path, postgres_database: tuple[str, str]) -> Iterator[ServerProcess]:
    server = ServerProcess(
        env={
            "DATABASE_URL": postgres_database[1],
            "REDIS_URL": REDIS_URL,
            "REDIS_NAMESPACE": redis_namespace(),
        },
        log_path=run_dir / "postgres-server.log",
    )
    yield from with_payments(server, run_dir, "postgres")


@pytest.fixture(scope="session", params=BACKENDS)
def server(request: pytest.FixtureRequest) -> ServerProcess:
    """The product on each backend: SQLite (embedded default) and PostgreSQL + Redis."""
    fixture: ServerProcess = request.getfixturevalue(f"{request.param}_server")
    return fixture


@pytest.fixture
def base_url(server: ServerProcess) -> str:
    return server.url


def unique_email(prefix: str = "person") -> str:
    return f"{prefix}-{secrets.token_hex(4)}@example.com"


@pytest_asyncio.fixture
async def alice(base_url: str) -> Account:
    return await sign_in(base_url, unique_email("alice"))


@pytest_asyncio.fixture
async def bob(base_url: str) -> Account:
    return await sign_in(base_url, unique_email("bob"))


@pytest_asyncio.fixture
async def staff(base_url: str) -> Account:
    return await sign_in(base_url, "staff@demo-clinic.example")


@pytest.fixture(scope="session")
def short_idle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose inactivity limit is 4 s (warning under 2 s), checked every 0.2 s:
    the idle-session tests of clients and of staff."""
    logs = tmp_path_factory.mktemp("idle")
    server = ServerProcess(
        env={
            "DATABASE_URL": f"sqlite+aiosqlite:///{logs / 'idle.db'}",
            "INACTIVITY_SECONDS": "4",
            "INACTIVITY_WARNING_SECONDS": "2",
            "SESSION_CHECK_SECONDS": "0.2",
        },
        log_path=logs / "idle.log",
    ).start()
    yield server
    server.stop()
