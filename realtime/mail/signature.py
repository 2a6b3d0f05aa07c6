"""The signature every mail to a person ends with (docs/product.md, "Mails"): the clinic's
name, its contact e-mail and, when it has one, its phone. Booking mails get it through their
`facts` (realtime/booking/mail_facts.py); other mails (sign-in link, contact acknowledgement)
pass it as `signature` to the `_signature` partial of their language."""

from realtime.contract import DEFAULT_LOCALE, LOCALES
from storage.models import Clinic


def signature_of(clinic: Clinic, locale: str) -> dict[str, str]:
    """What `_signature.{txt,html}` prints: `name`, `email`, `phone` ("" without one). An
    unknown `locale` reads as the default one, as render() does."""
    lang = locale if locale in LOCALES else DEFAULT_LOCALE
    return {
        "name": clinic.name.get(lang, clinic.id),
        "email": clinic.contact_email,
        "phone": clinic.contact_phone or "",
    }
