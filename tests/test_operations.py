"""Operations endpoints, settings and start-up: health, dev outbox, production refusal."""

from pathlib import Path

import httpx
import pytest

from realtime.settings import Settings
from tests.support.databases import (
    create_postgres_database,
    drop_postgres_database,
    set_connections_allowed,
)
from tests.support.production import production_env
from tests.support.server import ServerProcess, free_port


async def test_healthz_reports_each_dependency(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        reply = await http.get("/healthz")
    assert reply.status_code == 200
    body = reply.json()
    assert body["status"] == "ok" and body["database"] == "ok"
    assert body.get("redis") == ("ok" if "REDIS_URL" in server.env else None)


async def test_dev_outbox_is_empty_until_mail_exists(base_url: str) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.get("/dev/outbox", params={"to": "nobody@example.com"})
    assert reply.status_code == 200
    assert reply.json() == {"data": []}


async def test_unknown_api_paths_are_not_found_not_the_app_shell(base_url: str) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.get("/functions/clinic-read")
        assert reply.status_code in (404, 405)
        assert (await http.get("/dev/nothing-here")).status_code == 404


def test_production_refuses_the_default_secret() -> None:
    with pytest.raises(ValueError, match="SECRET_KEY"):
        Settings(app_env="production")
    good = production_env(Path("/unused"))
    accepted = Settings(
        app_env="production",
        secret_key=good["SECRET_KEY"],
        public_url=good["PUBLIC_URL"],
        stripe_secret_key=good["STRIPE_SECRET_KEY"],
        stripe_webhook_secret=good["STRIPE_WEBHOOK_SECRET"],
    )
    assert accepted.dev_endpoints is False


def test_production_process_refuses_to_start_with_default_secret(tmp_path: Path) -> None:
    server = ServerProcess(
        env={"APP_ENV": "production", "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/p.db"},
        log_path=tmp_path / "prod.log",
    ).launch()
    try:
        assert server.exit_code(timeout=30) != 0
    finally:
        server.stop()
    assert "SECRET_KEY" in (tmp_path / "prod.log").read_text()


async def test_production_has_no_dev_endpoints(tmp_path: Path) -> None:
    server = ServerProcess(env=production_env(tmp_path), log_path=tmp_path / "prod.log").start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as http:
            assert (await http.get("/dev/outbox")).status_code == 404
            assert (
                await http.post("/dev/token", json={"data": {"email": "a@b.c"}})
            ).status_code in (
                404,
                405,
            )
            staff = {"email": "a@b.c", "clinicId": "demo-clinic", "role": "clinic_admin"}
            assert (await http.post("/dev/staff", json={"data": staff})).status_code in (404, 405)
            assert (await http.get("/healthz")).status_code == 200
    finally:
        server.stop()


async def test_healthz_is_503_when_redis_is_down_but_the_balancer_keeps_the_node(
    tmp_path: Path,
) -> None:
    """Monitoring hears of the outage; the balancer's check asks the database only."""
    server = ServerProcess(
        env={
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/r.db",
            "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0",
        },
        log_path=tmp_path / "redis-down.log",
    ).start(healthy=False)
    try:
        async with httpx.AsyncClient(base_url=server.url) as http:
            reply = await http.get("/healthz")
            balancer = await http.get("/healthz/balancer")
        assert reply.status_code == 503
        assert reply.json()["redis"] == "down" and reply.json()["database"] == "ok"
        assert balancer.status_code == 200
        assert balancer.json() == {"status": "ok", "database": "ok"}
    finally:
        server.stop()


async def test_healthz_is_503_while_the_database_is_down_and_recovers(tmp_path: Path) -> None:
    name, url = await create_postgres_database()
    server = ServerProcess(env={"DATABASE_URL": url}, log_path=tmp_path / "db-down.log").start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            await set_connections_allowed(name, False)
            down = await http.get("/healthz")
            assert down.status_code == 503
            assert down.json()["database"] == "down"
            balancer = await http.get("/healthz/balancer")
            assert balancer.status_code == 503
            assert balancer.json() == {"status": "unavailable", "database": "down"}
            await set_connections_allowed(name, True)
            assert (await http.get("/healthz")).status_code == 200
            assert (await http.get("/healthz/balancer")).status_code == 200
    finally:
        server.stop()
        await drop_postgres_database(name)
