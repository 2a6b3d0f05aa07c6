"""Staff's second factor (docs/protocol.md, "Staff sign-in and roles"; docs/security.md).

- TOTP as RFC 6238 has it: SHA-1, 6 digits, 30 s steps, one step of drift either way.
- A code is accepted only for a time step later than the account's last accepted one (kept
  in the database, so a code used on one node is refused on every other): no replay.
- Ten recovery codes, shown once at enrolment and stored as SHA-256 hashes like session
  tokens (80 random bits each, so a hash cannot be reversed by trying), each usable once.
- Enrolment is confirmed by the first good code; until then the session state is `enrol`.
  A confirmed authenticator is not replaced through the product.
- Passing marks the session (not the account) in the same transaction that spends the code.
"""

import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pyotp

from realtime.changes import changing
from realtime.errors import FunctionError, invalid_field, no_access
from realtime.identity import STAFF_ROLES, Identity
from realtime.ratelimit import enforce_each
from realtime.rules import second_factor_required
from realtime.state import AppState
from storage.repo_catalog import get_clinic
from storage.repo_staff import (
    add_staff_member,
    get_counselor,
    lock_staff_member,
    mark_second_factor,
    replace_recovery_codes,
    staff_member,
    use_recovery_code,
)
from storage.repo_users import hash_token
from storage.types import utcnow

DIGITS = 6
PERIOD_SECONDS = 30
DRIFT_STEPS = 1
RECOVERY_CODES = 10
# 16 characters of base32's 32-letter alphabet (80 bits), shown in groups of four.
RECOVERY_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"
RECOVERY_LENGTH = 16
PRODUCT_NAME = "Genetic Counseling Booking"
WRONG_CODE = "That code is not valid. Enter the current code from your authenticator app."
NOT_ENROLLED = "Set up your authenticator app first."
ALREADY_ENROLLED = "Your authenticator app is already set up."


class _TOTP(pyotp.TOTP):
    """pyotp's TOTP, reading secrets of 80 bits too: the published demo secret is one
    (development and test only). Secrets made here are 160 bits (pyotp.random_base32)."""

    min_secret_length_bits = 80


def _totp(secret: str) -> pyotp.TOTP:
    return _TOTP(secret, digits=DIGITS, interval=PERIOD_SECONDS)


def matching_step(secret: str, code: str, now: datetime) -> int | None:
    """The time step (within one of `now`'s, either way) whose code `code` is, or None."""
    if len(code) != DIGITS or not code.isascii() or not code.isdigit():
        return None
    totp = _totp(secret)
    current = totp.timecode(now)
    found = None
    for step in range(current - DRIFT_STEPS, current + DRIFT_STEPS + 1):
        if hmac.compare_digest(totp.generate_otp(step), code):
            found = step
    return found


def normalize_recovery_code(code: str) -> str:
    return "".join(code.split()).replace("-", "").lower()


def new_recovery_code() -> str:
    raw = "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(RECOVERY_LENGTH))
    return "-".join(raw[i : i + 4] for i in range(0, RECOVERY_LENGTH, 4))


@dataclass(frozen=True)
class Enrolment:
    otpauth_uri: str
    recovery_codes: list[str]


def require_staff_caller(who: Identity | None) -> Identity:
    """A signed-in staff member, whatever the state of the second factor (what enrolling and
    passing it need); a client PERMISSION_DENIED."""
    if who is None:
        raise FunctionError("UNAUTHENTICATED", "Sign in to continue.")
    if not who.is_staff:
        raise no_access()
    return who


async def _limit(state: AppState, who: Identity, client_ip: str | None) -> None:
    settings = state.settings
    limits = {
        f"totp-ip:{client_ip or 'unknown'}": settings.totp_attempts_per_ip,
        f"totp-account:{who.uid}": settings.totp_attempts_per_account,
    }
    await enforce_each(state.limiter, limits, window_seconds=settings.rate_limit_window_seconds)


async def enrol(state: AppState, who: Identity | None, client_ip: str | None) -> Enrolment:
    """A new TOTP secret and recovery codes for a staff member not enrolled yet (calling
    again before the first code replaces both)."""
    caller = require_staff_caller(who)
    if caller.second_factor == "required":
        raise second_factor_required()
    await _limit(state, caller, client_ip)
    secret = pyotp.random_base32()
    codes = [new_recovery_code() for _ in range(RECOVERY_CODES)]
    async with changing(state), state.db.write() as session:
        member = await lock_staff_member(session, email=caller.email)
        if member is None or member.id is None:
            raise no_access()
        if member.totp_confirmed_at is not None:
            raise FunctionError("ABORTED", ALREADY_ENROLLED, {"secondFactor": caller.second_factor})
        member.totp_secret = secret
        member.totp_last_step = None
        await replace_recovery_codes(
            session,
            staff_id=member.id,
            code_hashes=[hash_token(normalize_recovery_code(code)) for code in codes],
        )
        clinic = await get_clinic(session, clinic_id=member.clinic_id)
    issuer = f"{PRODUCT_NAME} ({clinic.name.get('en', clinic.id)})" if clinic else PRODUCT_NAME
    uri = _totp(secret).provisioning_uri(name=caller.email, issuer_name=issuer)
    return Enrolment(otpauth_uri=uri, recovery_codes=codes)


def wrong_code() -> FunctionError:
    return FunctionError("UNAUTHENTICATED", WRONG_CODE, {"secondFactor": "required"})


async def verify(
    state: AppState, who: Identity | None, code: object, client_ip: str | None
) -> None:
    """Pass the session's second factor with a TOTP code or (once enrolled) a recovery code."""
    caller = require_staff_caller(who)
    await _limit(state, caller, client_ip)
    if not isinstance(code, str) or not 1 <= len(code) <= 64:
        raise invalid_field("code", "Enter the code.")
    async with changing(state), state.db.write() as session:
        member = await lock_staff_member(session, email=caller.email)
        if member is None or member.id is None:
            raise no_access()
        if member.totp_secret is None:
            raise FunctionError("UNAUTHENTICATED", NOT_ENROLLED, {"secondFactor": "enrol"})
        now = utcnow()
        step = matching_step(member.totp_secret, code.strip(), now)
        if step is not None:
            if member.totp_last_step is not None and step <= member.totp_last_step:
                raise wrong_code()  # used already (or older than one that was)
            member.totp_last_step = step
        elif member.totp_confirmed_at is None or not await use_recovery_code(
            session,
            staff_id=member.id,
            code_hash=hash_token(normalize_recovery_code(code)),
            at=now,
        ):
            raise wrong_code()
        if member.totp_confirmed_at is None:
            member.totp_confirmed_at = now
        await mark_second_factor(session, session_id=caller.session_id, at=now)


async def add_staff(
    state: AppState, *, email: str, clinic_id: object, role: object, counselor_id: object
) -> dict[str, Any]:
    """Make an address a staff member (development and tests: POST /dev/staff), not enrolled
    in the second factor. A counselor names a counselor of the same clinic."""
    if role not in STAFF_ROLES:
        raise invalid_field("role", "role must be counselor or clinic_admin.")
    if not isinstance(clinic_id, str):
        raise invalid_field("clinicId", "clinicId must be a clinic's id.")
    if role == "counselor" and not isinstance(counselor_id, str):
        raise invalid_field("counselorId", "A counselor needs a counselorId.")
    if role != "counselor" and counselor_id is not None:
        raise invalid_field("counselorId", "Only a counselor has a counselorId.")
    async with changing(state), state.db.write() as session:
        if await get_clinic(session, clinic_id=clinic_id) is None:
            raise invalid_field("clinicId", "No such clinic.")
        counselor = None
        if isinstance(counselor_id, str):
            counselor = await get_counselor(session, counselor_id=counselor_id)
            if counselor is None or counselor.clinic_id != clinic_id:
                raise invalid_field("counselorId", "No such counselor in this clinic.")
        if await staff_member(session, email=email) is not None:
            raise FunctionError("ABORTED", "This address is staff already.")
        await add_staff_member(
            session,
            email=email,
            clinic_id=clinic_id,
            role=str(role),
            counselor_id=counselor.id if counselor else None,
        )
    return {
        "email": email,
        "clinicId": clinic_id,
        "role": role,
        "counselorId": counselor.id if counselor else None,
    }
