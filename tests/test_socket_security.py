"""Socket.IO hardening: authentication at connect, origin check, message size cap."""

import json

import httpx
import pytest
import socketio
import websockets

from tests.conftest import unique_email
from tests.support.clients import Account, connect, sign_in

ENGINEIO_PATH = "/socket.io/?EIO=4&transport=websocket"


@pytest.mark.parametrize(
    "auth", [None, {"token": "not-a-real-token"}, {"token": "x" * 300}, {"token": 5}]
)
async def test_connect_without_a_valid_token_is_refused(base_url: str, auth: object) -> None:
    async with websockets.connect(ws_url(base_url)) as ws:
        await ws.recv()
        await ws.send("40" + (json.dumps(auth) if auth is not None else ""))
        refusal = str(await ws.recv())
    assert refusal.startswith("44")
    assert json.loads(refusal[2:]) == {"message": "unauthenticated"}


async def test_python_client_without_token_cannot_connect(base_url: str) -> None:
    with pytest.raises(socketio.exceptions.ConnectionError):
        async with connect(base_url, None):
            pass


def ws_url(base_url: str) -> str:
    return base_url.replace("http://", "ws://") + ENGINEIO_PATH


async def test_foreign_origin_is_refused(base_url: str, alice: Account) -> None:
    with pytest.raises(websockets.exceptions.InvalidStatus):
        async with websockets.connect(ws_url(base_url), origin="https://evil.example"):  # type: ignore[arg-type]
            pass


async def test_own_origin_is_accepted(base_url: str, alice: Account) -> None:
    async with websockets.connect(ws_url(base_url), origin=base_url) as ws:  # type: ignore[arg-type]
        opening = await ws.recv()
        assert str(opening).startswith("0{")
        await ws.send("40" + json.dumps({"token": alice.token}))
        assert str(await ws.recv()).startswith("40{")


async def test_messages_over_64_kib_close_the_connection(base_url: str, alice: Account) -> None:
    async with websockets.connect(ws_url(base_url), max_size=None) as ws:
        await ws.recv()
        await ws.send("40" + json.dumps({"token": alice.token}))
        await ws.recv()
        big = json.dumps(
            ["update", {"path": f"users/{alice.uid}", "data": {"userAgent": "x" * 70_000}}]
        )
        await ws.send("421" + big)
        with pytest.raises(websockets.exceptions.ConnectionClosed):
            while True:
                await ws.recv()
    async with connect(base_url, alice.token) as sock:
        snapshot = (await sock.subscribe(f"users/{alice.uid}"))["snapshot"]
    assert snapshot["data"]["userAgent"] is None


async def test_http_callers_authenticate_with_the_bearer_token(
    base_url: str, alice: Account
) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        signed_out = (await http.get("/auth/session")).json()
        signed_in = (
            await http.get("/auth/session", headers={"Authorization": f"Bearer {alice.token}"})
        ).json()
    assert signed_out == {"data": None}
    assert signed_in["data"]["uid"] == alice.uid
    assert signed_in["data"]["role"] == "client"


async def test_staff_identity_carries_role_and_clinic(base_url: str, staff: Account) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.get("/auth/session", headers={"Authorization": f"Bearer {staff.token}"})
    assert reply.json()["data"]["role"] == "clinic_admin"
    assert reply.json()["data"]["clinicId"] == "demo-clinic"


async def test_sign_out_revokes_the_token_on_http_and_socket(base_url: str) -> None:
    person = await sign_in(base_url, unique_email("leaving"))
    headers = {"Authorization": f"Bearer {person.token}"}
    async with httpx.AsyncClient(base_url=base_url) as http:
        assert (await http.post("/auth/sign-out", headers=headers)).status_code == 200
        after = (await http.get("/auth/session", headers=headers)).json()
    assert after == {"data": None}
    with pytest.raises(socketio.exceptions.ConnectionError):
        async with connect(base_url, person.token):
            pass
