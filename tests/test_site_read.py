"""site-read: the domain our mails come from, which the FAQ asks carrier users to allow (issue
#15: it used to name the page's host, "127.0.0.1")."""

import pytest

from realtime.functions.catalog import mail_sender_domain
from realtime.settings import Settings
from tests.support.clients import call_http


async def test_site_read_names_the_domain_of_the_from_address(base_url: str) -> None:
    status, body = await call_http(base_url, "site-read", None)
    assert status == 200, body
    assert body["data"] == {"mailSenderDomain": mail_sender_domain(Settings().mail_from)}
    assert (await call_http(base_url, "site-read", {"extra": 1}))[0] == 400


@pytest.mark.parametrize(
    ("mail_from", "domain"),
    [
        ("Genetic Counseling Booking <no-reply@Mail.Clinic.example.jp>", "mail.clinic.example.jp"),
        ("no-reply@clinic.example", "clinic.example"),
    ],
)
def test_the_domain_is_read_from_the_address_not_the_name(mail_from: str, domain: str) -> None:
    assert mail_sender_domain(mail_from) == domain
