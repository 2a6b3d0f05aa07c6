"""Mail templates (jinja2) per language: subject, plain text and HTML.

Every subject starts with one brand prefix, added here and nowhere else (no template repeats
it): the product's name as the person saw it in the browser's tab and the page header while
booking (the client's `appName`, client/src/locales/*/common.json), so the mail is recognised
in an inbox among others. A clinic's name would not do: some mails (the administrator's error
report) have no clinic, and the clinic signs the mail at its end instead.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from realtime.contract import DEFAULT_LOCALE, LOCALES

TEMPLATES = Path(__file__).with_name("templates")

BRAND = {"ja": "遺伝カウンセリング予約", "en": "Genetic Counseling Booking"}


def subject_prefix(lang: str) -> str:
    """【遺伝カウンセリング予約】 / "[Genetic Counseling Booking] ": brackets as each language's
    mails write them."""
    return f"【{BRAND[lang]}】" if lang == "ja" else f"[{BRAND[lang]}] "


_env = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
    undefined=StrictUndefined,
    keep_trailing_newline=True,
)


@dataclass(frozen=True)
class Rendered:
    subject: str
    text: str
    html: str


def render(template: str, locale: str, /, **context: Any) -> Rendered:
    """Render templates/<locale>/<template>.{subject.txt,txt,html}, the subject behind the
    brand prefix; unknown locales use ja."""
    lang = locale if locale in LOCALES else DEFAULT_LOCALE
    own = _env.get_template(f"{lang}/{template}.subject.txt").render(**context).strip()
    subject = subject_prefix(lang) + own
    return Rendered(
        subject=subject,
        text=_env.get_template(f"{lang}/{template}.txt").render(**context),
        html=_env.get_template(f"{lang}/{template}.html").render(subject=subject, **context),
    )


def render_text(template: str, locale: str, /, **context: Any) -> str:
    """One plain-text template, templates/<locale>/<template>.txt (words that are not a mail,
    such as a calendar feed's; unknown locales use ja)."""
    lang = locale if locale in LOCALES else DEFAULT_LOCALE
    return _env.get_template(f"{lang}/{template}.txt").render(**context).strip()
