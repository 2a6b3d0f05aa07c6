"""The hosted checkout page at a session's `url`: a plain, accessible test card form (ja/en)."""

# Japanese text uses full-width punctuation on purpose.
# ruff: noqa: RUF001

import re
import time
from html import escape

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from infra.stripe_local.api import service_of
from infra.stripe_local.errors import StripeError
from infra.stripe_local.models import Session, format_amount
from infra.stripe_local.service import DEFAULT_CARD, StripeLocal

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Checkout",
        "receipt": "Receipt",
        "paid": "Amount paid",
        "refunded_amount": "Refunded",
        "test_mode": "Test mode: no real payment is made.",
        "total": "Total",
        "quantity": "Qty",
        "payment": "Payment details",
        "email": "Email",
        "card": "Card number",
        "expiry": "Expiry (MM / YY)",
        "cvc": "CVC",
        "name": "Name on card",
        "pay": "Pay",
        "cancel": "Cancel",
        "hint": "Test cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.",
        "generic_decline": "Your card was declined. Try another card.",
        "insufficient_funds": "Your card has insufficient funds. Try another card.",
        "incomplete_number": "Your card number is incomplete.",
        "expired_card": "Your card's expiration date is in the past.",
        "incomplete_expiry": "Your card's expiration date is incomplete.",
        "expired": "This checkout session has expired.",
        "complete": "This payment is already complete.",
        "not_found": "This checkout session was not found.",
        "back": "Return to the site",
        "done": "Payment complete. Thank you.",
    },
    "ja": {
        "title": "お支払い",
        "receipt": "領収書",
        "paid": "お支払い額",
        "refunded_amount": "返金額",
        "test_mode": "テストモード：実際の支払いは行われません。",
        "total": "合計",
        "quantity": "数量",
        "payment": "お支払い情報",
        "email": "メールアドレス",
        "card": "カード番号",
        "expiry": "有効期限（月 / 年）",
        "cvc": "セキュリティコード",
        "name": "カード名義",
        "pay": "支払う",
        "cancel": "キャンセル",
        "hint": "テストカード：4242 4242 4242 4242 は成功、4000 0000 0000 0002 は拒否されます。",
        "generic_decline": "カードが拒否されました。別のカードをお試しください。",
        "insufficient_funds": "カードの残高が不足しています。別のカードをお試しください。",
        "incomplete_number": "カード番号が不完全です。",
        "expired_card": "カードの有効期限が過ぎています。",
        "incomplete_expiry": "カードの有効期限が不完全です。",
        "expired": "このお支払いページは有効期限が切れています。",
        "complete": "このお支払いは完了しています。",
        "not_found": "このお支払いページは見つかりません。",
        "back": "サイトに戻る",
        "done": "お支払いが完了しました。ありがとうございました。",
    },
}

STYLE = """
body { font-family: system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1a1a1a; }
main { max-width: 28rem; margin: 2rem auto; padding: 1.5rem; background: #fff;
       border: 1px solid #d0d4da; border-radius: 8px; }
h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
.total { margin: .25rem 0 1rem; } .amount { font-size: 2rem; font-weight: 700; }
.test { background: #fff4d6; border: 1px solid #b07d00; padding: .5rem; border-radius: 4px; }
ul.items { padding: 0; list-style: none; }
label { display: block; font-weight: 600; margin-top: .75rem; }
input { font: inherit; width: 100%; box-sizing: border-box; padding: .5rem;
        border: 1px solid #6b7280; border-radius: 4px; }
input[aria-invalid="true"] { border-color: #b00020; }
.row { display: flex; gap: .75rem; } .row > div { flex: 1; }
button { font: inherit; font-weight: 600; padding: .6rem 1.2rem; border-radius: 4px;
         border: 1px solid #1f3fbf; margin-top: 1rem; cursor: pointer; }
button.pay { background: #1f3fbf; color: #fff; width: 100%; }
button.cancel { background: #fff; color: #1f3fbf; }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
[role="alert"] { color: #b00020; font-weight: 600; }
.hint { color: #4b5563; font-size: .875rem; }
"""


def language(session: Session | None, request: Request) -> str:
    locale = (session.locale if session else None) or "auto"
    if locale == "auto":
        accept = request.headers.get("accept-language", "").lower()
        return "ja" if accept.startswith("ja") else "en"
    return "ja" if locale.startswith("ja") else "en"


def page(lang: str, title: str, body: str, status: int = 200) -> HTMLResponse:
    html = (
        f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n"
        f"<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )
    return HTMLResponse(html, status, headers={"Cache-Control": "no-store"})


def message_page(
    lang: str, session: Session | None, key: str, link: str | None, status: int = 200
) -> HTMLResponse:
    t = TEXTS[lang]
    body = f'<h1>{escape(t["title"])}</h1>\n<p role="status">{escape(t[key])}</p>'
    if session is not None:
        body = (
            f"<h1>{escape(session.product_name)}</h1>\n"
            f'<p class="total"><strong class="amount">'
            f"{escape(format_amount(session.amount_total, session.currency))}</strong></p>\n"
            f'<p role="status">{escape(t[key])}</p>'
        )
    if link:
        body += f'\n<p><a href="{escape(link)}">{escape(t["back"])}</a></p>'
    return page(lang, t["title"], body, status)


def checkout_form(
    lang: str,
    session: Session,
    *,
    error_key: str | None = None,
    values: dict[str, str] | None = None,
) -> HTMLResponse:
    t = TEXTS[lang]
    v = {
        "card_number": "4242 4242 4242 4242",
        "card_expiry": "12 / 34",
        "card_cvc": "123",
        "card_name": "",
        "email": session.customer_email or "",
    }
    v.update(values or {})
    amount = format_amount(session.amount_total, session.currency)
    items = "\n".join(
        f"<li>{escape(item.name)} &times; {item.quantity}: "
        f"{escape(format_amount(item.amount, item.currency))}</li>"
        for item in session.line_items
    )
    card_error = error_key in ("generic_decline", "insufficient_funds", "incomplete_number")
    expiry_error = error_key in ("expired_card", "incomplete_expiry")
    alert = f'<p id="payment-error" role="alert">{escape(t[error_key])}</p>' if error_key else ""
    email_readonly = " readonly" if session.customer_email else ""

    def invalid(flag: bool) -> str:
        return ' aria-invalid="true" aria-describedby="payment-error"' if flag else ""

    body = f"""<p class="test">{escape(t["test_mode"])}</p>
<h1 id="product">{escape(session.product_name)}</h1>
<p class="total">{escape(t["total"])} <strong class="amount">{escape(amount)}</strong></p>
<ul class="items">
{items}
</ul>
<form method="post" action="{session.page_path()}/pay" aria-labelledby="payment-heading" novalidate>
<h2 id="payment-heading">{escape(t["payment"])}</h2>
{alert}
<label for="email">{escape(t["email"])}</label>
<input id="email" name="email" type="email" autocomplete="email"
 value="{escape(v["email"])}"{email_readonly}>
<label for="card_number">{escape(t["card"])}</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number"
 value="{escape(v["card_number"])}"{invalid(card_error)}>
<div class="row">
<div><label for="card_expiry">{escape(t["expiry"])}</label>
<input id="card_expiry" name="card_expiry" inputmode="numeric" autocomplete="cc-exp"
 value="{escape(v["card_expiry"])}"{invalid(expiry_error)}></div>
<div><label for="card_cvc">{escape(t["cvc"])}</label>
<input id="card_cvc" name="card_cvc" inputmode="numeric" autocomplete="cc-csc"
 value="{escape(v["card_cvc"])}"></div>
</div>
<label for="card_name">{escape(t["name"])}</label>
<input id="card_name" name="card_name" autocomplete="cc-name" value="{escape(v["card_name"])}">
<p class="hint">{escape(t["hint"])}</p>
<button type="submit" class="pay">{escape(t["pay"])}</button>
</form>"""
    if session.cancel_url:
        body += f"""
<form method="post" action="{session.page_path()}/cancel">
<button type="submit" class="cancel">{escape(t["cancel"])}</button>
</form>"""
    return page(lang, f"{t['title']}: {session.product_name}", body)


def expiry_problem(value: str) -> str | None:
    """None for any future MM / YY; else the message key (past or unreadable)."""
    match = re.fullmatch(r"\s*(\d{1,2})\s*/?\s*(\d{2}|\d{4})\s*", value)
    if match is None:
        return "incomplete_expiry"
    month, year = int(match.group(1)), int(match.group(2))
    if not 1 <= month <= 12:
        return "incomplete_expiry"
    if year < 100:
        year += 2000
    today = time.gmtime()
    if (year, month) < (today.tm_year, today.tm_mon):
        return "expired_card"
    return None


def closed_page(lang: str, session: Session) -> HTMLResponse:
    if session.status == "complete":
        link = session.redirect_url(session.success_url) if session.success_url else None
        return message_page(lang, session, "complete", link)
    return message_page(lang, session, "expired", session.cancel_url)


async def _lookup(request: Request) -> tuple[StripeLocal, Session | None]:
    service = service_of(request)
    session = service.sessions.get(str(request.path_params["id"]))
    if session is not None:
        async with service.lock:
            service.sweep_session(session)
    return service, session


async def show(request: Request) -> Response:
    _, session = await _lookup(request)
    lang = language(session, request)
    if session is None:
        return message_page(lang, None, "not_found", None, 404)
    if session.status != "open":
        return closed_page(lang, session)
    return checkout_form(lang, session)


async def pay(request: Request) -> Response:
    service, session = await _lookup(request)
    lang = language(session, request)
    if session is None:
        return message_page(lang, None, "not_found", None, 404)
    form = await request.form()
    values = {
        name: str(form.get(name) or "")
        for name in ("email", "card_number", "card_expiry", "card_cvc", "card_name")
    }
    problem = expiry_problem(values["card_expiry"]) if values["card_expiry"] else None
    if problem is not None:
        return checkout_form(lang, session, error_key=problem, values=values)
    async with service.lock:
        if session.status != "open":
            return closed_page(lang, session)
        try:
            service.pay(
                session.id,
                card=values["card_number"] or DEFAULT_CARD,
                email=values["email"] or None,
                name=values["card_name"] or None,
            )
        except StripeError as error:
            key = str(error.extra.get("decline_code") or error.code or "generic_decline")
            if key not in TEXTS[lang]:
                key = "generic_decline"
            return checkout_form(lang, session, error_key=key, values=values)
    if session.success_url:
        return RedirectResponse(session.redirect_url(session.success_url), 303)
    return message_page(lang, session, "done", None)


async def cancel(request: Request) -> Response:
    _, session = await _lookup(request)
    lang = language(session, request)
    if session is None:
        return message_page(lang, None, "not_found", None, 404)
    # As on Stripe, leaving by the back link does not end the session: it stays open.
    # Only success_url has the {CHECKOUT_SESSION_ID} template filled in.
    if session.cancel_url:
        return RedirectResponse(session.cancel_url, 303)
    return RedirectResponse(session.page_path(), 303)


async def receipt(request: Request) -> Response:
    """A charge's receipt (Stripe's `receipt_url`): what was paid, for what, and any refund."""
    service = service_of(request)
    pi_id = service.charges.get(str(request.path_params["id"]))
    pi = service.payment_intents.get(pi_id) if pi_id else None
    session = service.sessions.get(pi.session_id) if pi else None
    lang = language(session, request)
    t = TEXTS[lang]
    if pi is None:
        return message_page(lang, None, "not_found", None, 404)
    rows = [(t["paid"], format_amount(pi.amount, pi.currency))]
    if pi.amount_refunded:
        rows.append((t["refunded_amount"], format_amount(pi.amount_refunded, pi.currency)))
    table = "".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows)
    title = session.product_name if session else t["receipt"]
    body = (
        f"<h1>{escape(t['receipt'])}</h1>\n<p>{escape(title)}</p>\n"
        f"<table>{table}</table>\n<p>{escape(pi.charge_id)}</p>"
    )
    return page(lang, t["receipt"], body)


def routes() -> list[BaseRoute]:
    return [
        Route("/receipts/{id}", receipt, methods=["GET"]),
        Route("/checkout/{id}", show, methods=["GET"]),
        Route("/checkout/{id}/pay", pay, methods=["POST"]),
        Route("/checkout/{id}/cancel", cancel, methods=["POST"]),
    ]
