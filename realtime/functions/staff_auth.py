"""auth-totpEnroll: a staff member sets up the second factor (docs/protocol.md, "Staff
sign-in and roles"); passing it is POST /auth/totp (realtime/http.py). The reply carries the
set-up address also as a QR code (`qrSvg`, realtime/qr_code.py) for an authenticator app."""

from typing import Any

from realtime.dispatch import CallContext, callable_function, validated
from realtime.functions.inputs import Input
from realtime.qr_code import qr_svg
from realtime.second_factor import enrol, require_staff_caller


class TotpEnroll(Input):
    pass


@callable_function("auth-totpEnroll", TotpEnroll, authorize_first=True)
async def auth_totp_enroll(context: CallContext, data: Any) -> dict[str, Any]:
    require_staff_caller(context.identity)  # staff only, before the input is looked at
    validated(TotpEnroll, data)
    enrolment = await enrol(context.state, context.identity, context.client_ip)
    return {
        "otpauthUri": enrolment.otpauth_uri,
        "recoveryCodes": enrolment.recovery_codes,
        "qrSvg": qr_svg(enrolment.otpauth_uri),
    }
