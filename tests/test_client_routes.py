"""Finding 11 of issue #15: a path the client does not route answers 404, with the client
(which shows its not-found page) as the body; the client's routes, with their parameters,
answer 200. The list is contract.json's "clientRoutes", the one the client's router uses."""

import httpx
import pytest

from realtime.client_routes import is_client_route
from realtime.contract import CLIENT_ROUTES

KNOWN = [
    "/",
    "/c/demo-clinic",
    "/c/demo-clinic?locale=en",
    "/prenatal",
    "/pgt",
    "/b",
    "/b/",
    "/b/review",
    "/staff/appointments/appt-123",
    "/downloads/demo-clinic/consent-form/ja",
    "/login-confirmation?token=abc",
    "/faq",
]
UNKNOWN = [
    "/no/such/page",
    "/b/nope",
    "/c",
    "/c/demo-clinic/extra",
    "/staff/appointments",
    "/downloads/demo-clinic/consent-form",
    "/faq/more",
    "/index.htm",
]


@pytest.mark.parametrize("path", KNOWN)
async def test_client_routes_answer_the_client_with_200(base_url: str, path: str) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.get(path)
    assert reply.status_code == 200, path
    assert '<div id="root">' in reply.text


@pytest.mark.parametrize("path", UNKNOWN)
async def test_unknown_paths_answer_404_with_the_client(base_url: str, path: str) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.get(path)
        head = await http.head(path)
    assert reply.status_code == 404, path
    assert reply.headers["content-type"].startswith("text/html")
    assert '<div id="root">' in reply.text  # the client, which shows its not-found page
    assert head.status_code == 404


def test_every_contract_route_matches_itself_with_its_parameters_filled() -> None:
    for route in CLIENT_ROUTES:
        filled = "/".join("x-1" if part.startswith(":") else part for part in route.split("/"))
        assert is_client_route(filled or "/"), route
        assert not is_client_route(f"{filled.rstrip('/')}/extra-segment"), route
