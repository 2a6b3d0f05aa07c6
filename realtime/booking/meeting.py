"""The video meeting link of a confirmed appointment.

Jitsi-style by default: `<MEETING_BASE_URL><unguessable room>`; another provider with the
same shape (a base URL and a room name) needs only a different MEETING_BASE_URL.
"""

import secrets

ROOM_BYTES = 18  # 144 bits: not guessable, not enumerable


def meeting_link(base_url: str) -> str:
    return f"{base_url.rstrip('/')}/gc-{secrets.token_urlsafe(ROOM_BYTES)}"
