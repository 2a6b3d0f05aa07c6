"""One address, one account, one working link (issue #12, item 20), on SQLite and PostgreSQL.

Using a sign-in link retires the address's other unused links, so a mail left in an inbox
cannot sign anyone in after a newer (or older) one was used. Addresses are normalised by the
one normalize_email (realtime/signin.py): `x@example.com.` and `X@Example.com` are one person.
"""

import asyncio
import unicodedata

import httpx
import pytest

from tests.conftest import unique_email
from tests.support.clients import (
    Account,
    call_http,
    confirm_link,
    outbox,
    request_link,
    sign_in,
    sign_in_by_link,
    token_of,
)
from tests.test_signin import link_invalid


async def two_links(base_url: str, email: str) -> tuple[str, str]:
    """The tokens of an older and a newer link for `email`."""
    older = await request_link(base_url, email)
    newer = await request_link(base_url, email)
    assert older != newer
    return older, newer


async def test_an_older_link_no_longer_works_once_a_newer_one_was_used(base_url: str) -> None:
    email = unique_email("older")
    older, newer = await two_links(base_url, email)
    assert (await confirm_link(base_url, email, newer)).status_code == 200
    assert link_invalid(await confirm_link(base_url, email, older))


async def test_a_newer_link_no_longer_works_once_an_older_one_was_used(base_url: str) -> None:
    email = unique_email("newer")
    older, newer = await two_links(base_url, email)
    assert (await confirm_link(base_url, email, older)).status_code == 200
    assert link_invalid(await confirm_link(base_url, email, newer))


async def test_another_address_keeps_its_links(base_url: str) -> None:
    mine, theirs = unique_email("mine"), unique_email("theirs")
    their_link = await request_link(base_url, theirs)
    await sign_in_by_link(base_url, mine)
    assert (await confirm_link(base_url, theirs, their_link)).status_code == 200


async def test_racing_links_of_one_address_sign_in_once(base_url: str) -> None:
    """Each confirmation locks the address's links in one order: one wins, none deadlocks."""
    email = unique_email("racing")
    tokens = [await request_link(base_url, email) for _ in range(4)]
    replies = await asyncio.gather(*(confirm_link(base_url, email, t) for t in tokens))
    assert sorted(r.status_code for r in replies) == [200, 400, 400, 400], [r.text for r in replies]
    assert all(link_invalid(r) for r in replies if r.status_code != 200)


def variants(email: str) -> list[str]:
    local, domain = email.split("@")
    return [f"{email}.", f" {local.upper()}@{domain.upper()}.. ", f"{local}@{domain.title()}"]


async def link_for(base_url: str, spelling: str, mailbox: str) -> str:
    """Ask for a link as `spelling`; its token, read from the mail sent to `mailbox`."""
    status, body = await call_http(base_url, "sendEmail-authLink", {"email": spelling})
    assert status == 200, body
    return token_of((await outbox(base_url, mailbox))[0]["links"][0])


async def test_spellings_of_one_address_are_one_account_by_link(base_url: str) -> None:
    email = unique_email("dotted")
    first = await sign_in_by_link(base_url, email)
    for variant in variants(email):
        reply = await confirm_link(base_url, variant, await link_for(base_url, variant, email))
        assert reply.status_code == 200, reply.text
        again = Account(**{k: reply.json()["data"][k] for k in ("uid", "email", "token")})
        assert (again.uid, again.email) == (first.uid, email), variant
    assert len(await outbox(base_url, email)) == 1 + len(variants(email))


async def test_a_link_asked_for_one_spelling_works_for_another(base_url: str) -> None:
    email = unique_email("spelling")
    token = await link_for(base_url, f"{email}.", email)
    assert (await confirm_link(base_url, email.upper(), token)).status_code == 200


async def test_spellings_of_one_address_are_one_account_by_dev_token(base_url: str) -> None:
    email = unique_email("devtoken")
    first = await sign_in(base_url, email)
    for variant in variants(email):
        assert (await sign_in(base_url, variant)).uid == first.uid, variant


async def test_composed_and_decomposed_accents_are_one_address(base_url: str) -> None:
    composed = unique_email("ren\u00e9")
    decomposed = unicodedata.normalize("NFD", composed)
    assert composed != decomposed
    assert (await sign_in(base_url, composed)).uid == (await sign_in(base_url, decomposed)).uid


async def test_provider_specific_spellings_stay_distinct(base_url: str) -> None:
    """Gmail ignores dots and +tags; other providers do not, so they are never merged."""
    email = unique_email("first.last")
    local, domain = email.split("@")
    others = [f"{local.replace('.', '')}@{domain}", f"{local}+tag@{domain}"]
    uids = {(await sign_in(base_url, address)).uid for address in [email, *others]}
    assert len(uids) == 3


@pytest.mark.parametrize("email", ["nobody", "a@b", "a@b.c\nx", ""])
async def test_dev_token_refuses_what_sign_in_refuses(base_url: str, email: str) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post("/dev/token", json={"data": {"email": email}})
    assert reply.status_code == 400
    assert reply.json()["error"]["details"]["fields"]["email"] == "Invalid email address."
