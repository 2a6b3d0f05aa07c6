"""How a local stand-in for an outside service (infra/stripe_local, infra/oidc_local) runs as
a process: listening on 127.0.0.1 only, saying so once it accepts connections, and leaving
when the process that started it is gone."""

import asyncio
import logging
import os
import socket

import uvicorn

HOST = "127.0.0.1"
PARENT_CHECK_SECONDS = 0.5


def listen(name: str, port: int) -> tuple[socket.socket, str]:
    """A socket bound to `port` on 127.0.0.1 (0: a free one) and its base URL; exits with a
    plain message when the port is taken."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        raise SystemExit(f"{name}: cannot listen on {HOST}:{port}: {exc}") from exc
    return sock, f"http://{HOST}:{sock.getsockname()[1]}"


async def serve(
    name: str, server: uvicorn.Server, sock: socket.socket, url: str, parent_pid: int | None
) -> None:
    """Run `server` on `sock`; print `<name> listening on <url>` once it accepts connections
    (what starters wait for), and stop when `parent_pid` is no longer the parent."""

    async def announce() -> None:
        while not server.started:
            if server.should_exit:
                return
            await asyncio.sleep(0.02)
        print(f"{name} listening on {url}", flush=True)

    tasks = [asyncio.create_task(announce())]
    if parent_pid:
        tasks.append(asyncio.create_task(exit_with_parent(name, server, parent_pid)))
    try:
        await server.serve(sockets=[sock])
    finally:
        for task in tasks:
            task.cancel()
        sock.close()


async def exit_with_parent(name: str, server: uvicorn.Server, parent_pid: int) -> None:
    """Stop at once when the parent is gone: an orphan is re-parented, so getppid() changes.
    Polling works wherever the parent dies and however (no signal reaches us on kill -9);
    PR_SET_PDEATHSIG would need a preexec_fn in a parent that runs threads."""
    while True:
        await asyncio.sleep(PARENT_CHECK_SECONDS)
        if os.getppid() != parent_pid:
            break
    logging.getLogger(name).warning("parent %s is gone; exiting", parent_pid)
    server.should_exit = server.force_exit = True
