"""Mail templates (jinja2) per language: subject, plain text and HTML."""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from realtime.contract import DEFAULT_LOCALE, LOCALES

TEMPLATES = Path(__file__).with_name("templates")

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
    """Render templates/<locale>/<template>.{subject.txt,txt,html}; unknown locales use ja."""
    lang = locale if locale in LOCALES else DEFAULT_LOCALE
    subject = _env.get_template(f"{lang}/{template}.subject.txt").render(**context).strip()
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
