"""Facts shared with the client, loaded from contract.json (the one source of truth)."""

import json
from pathlib import Path
from typing import Any, Final

_CONTRACT: Final[dict[str, Any]] = json.loads(
    (Path(__file__).with_name("contract.json")).read_text(encoding="utf-8")
)

LOCALES: Final[tuple[str, ...]] = tuple(_CONTRACT["locales"])
DEFAULT_LOCALE: Final[str] = _CONTRACT["defaultLocale"]
ERROR_STATUSES: Final[dict[str, int]] = dict(_CONTRACT["errorStatuses"])
MAX_MESSAGE_BYTES: Final[int] = int(_CONTRACT["maxMessageBytes"])
# The largest clinic document an administrator may upload (realtime/document_content.py).
MAX_DOCUMENT_BYTES: Final[int] = int(_CONTRACT["maxDocumentBytes"])
# Paths the Python server answers itself (never the client's routes); the Vite dev server
# proxies the same list (client/vite.config.ts).
SERVER_PATH_PREFIXES: Final[tuple[str, ...]] = tuple(_CONTRACT["serverPathPrefixes"])
INACTIVITY_LOGOUT_SECONDS: Final[int] = int(_CONTRACT["inactivityLogoutSeconds"])
INACTIVITY_WARNING_SECONDS: Final[int] = int(_CONTRACT["inactivityWarningSeconds"])
# The answer time /contact-confirmation and the contact acknowledgement mail promise.
CONTACT_REPLY_BUSINESS_DAYS: Final[int] = int(_CONTRACT["contactReplyBusinessDays"])
# What a booking mail's signed link is for (realtime/link_tokens.py), and the query
# parameter that carries it (realtime/mail/links.py, client/src/auth/linkSession.ts).
LINK_PURPOSES: Final[tuple[str, ...]] = tuple(_CONTRACT["linkPurposes"])
LINK_TOKEN_PARAM: Final[str] = _CONTRACT["linkTokenParam"]
APPOINTMENT_STATUSES: Final[tuple[str, ...]] = tuple(_CONTRACT["appointmentStatuses"])
# The status machine's moves (realtime/booking/status.py); the staff screens offer an action
# only where its move is allowed.
APPOINTMENT_TRANSITIONS: Final[dict[str, frozenset[str]]] = {
    status: frozenset(targets) for status, targets in _CONTRACT["appointmentTransitions"].items()
}
SERVICE_ALIASES: Final[tuple[str, ...]] = tuple(_CONTRACT["serviceAliases"])
# Every path the client routes, in react-router syntax (":name" is one segment): the client's
# route table takes its paths from here (client/src/router.tsx), and the server answers any
# other path with the client's not-found page and a 404 (realtime/client_routes.py).
CLIENT_ROUTES: Final[tuple[str, ...]] = (
    *_CONTRACT["clientRoutes"],
    *(f"/{alias}" for alias in SERVICE_ALIASES),
)
PATIENT_ROLES: Final[dict[str, tuple[int, ...]]] = {
    group: tuple(codes) for group, codes in _CONTRACT["patientRoles"].items()
}
# Why a sign-in at a clinic's OpenID Connect provider ended on the sign-in screen
# (`/?staffSignIn=<reason>`, realtime/oidc/flow.py); the client words each in ja and en.
STAFF_SIGN_IN_ERRORS: Final[tuple[str, ...]] = tuple(_CONTRACT["staffSignInErrors"])
# Every action the audit log records (realtime/audit.py names each), in the order the audit
# screen's filter offers them (client/src/staff/audit.ts).
AUDIT_ACTIONS: Final[tuple[str, ...]] = tuple(_CONTRACT["auditActions"])
# Why a field of `identityProvider-update` was refused (`details.codes.<field>`,
# realtime/oidc/admin_rules.py); the client words each in ja and en.
IDENTITY_PROVIDER_PROBLEMS: Final[tuple[str, ...]] = tuple(_CONTRACT["identityProviderProblems"])
