"""uvicorn's HTTP protocol with a deadline for reading each request and a per-address cap.

uvicorn 0.54 arms no timer on a new connection and cancels its keep-alive timer on every
byte received, so a client that sends a request head (or body) one byte at a time, or
nothing at all, holds its connection for ever (slowloris). Here each request must arrive
whole (head and body) within `read_timeout` seconds of its first byte (of the connection,
for the first one), and one address holds at most `max_per_address` HTTP connections at
once (a connection upgraded to a WebSocket leaves this count). Trusted proxies are not
capped: every client behind them shares their address. See docs/protocol.md.
"""

import asyncio
import ipaddress
from collections import Counter
from collections.abc import Callable

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


def trusted_hosts(forwarded_allow_ips: str | None) -> Callable[[str], bool]:
    """Whether a peer address is one of FORWARDED_ALLOW_IPS (IPs, networks or `*`)."""
    entries = [item.strip() for item in (forwarded_allow_ips or "").split(",") if item.strip()]
    if "*" in entries:
        return lambda host: True
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            continue  # a host name: uvicorn matches it literally; nothing to cap-exempt here

    def trusted(host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return host in entries
        return any(address in network for network in networks)

    return trusted


def guarded_http_protocol(
    *, read_timeout: float, max_per_address: int, exempt: Callable[[str], bool]
) -> type[asyncio.Protocol]:
    """An HttpToolsProtocol class (uvicorn's `http=`) enforcing the deadline and the cap."""
    open_per_address: Counter[str] = Counter()

    class GuardedHttpProtocol(HttpToolsProtocol):
        _deadline: asyncio.TimerHandle | None = None
        _counted_as: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            if host is not None and max_per_address > 0 and not exempt(host):
                if open_per_address[host] >= max_per_address:
                    transport.close()
                    return
                open_per_address[host] += 1
                self._counted_as = host
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._uncount()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._disarm()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            self._uncount()
            super().handle_websocket_upgrade()

        def _arm(self) -> None:
            if self._deadline is None:
                self._deadline = self.loop.call_later(read_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

        def _uncount(self) -> None:
            if self._counted_as is not None:
                open_per_address[self._counted_as] -= 1
                if open_per_address[self._counted_as] <= 0:
                    del open_per_address[self._counted_as]
                self._counted_as = None

    return GuardedHttpProtocol
