"""Run the local OpenID Connect provider as a process.

    python -m infra.oidc_local --port 9400 --client-id genecounsel --client-secret local-secret \\
        --user staff@demo-clinic.example

`--port 0` takes a free one; prints `oidc-local listening on http://127.0.0.1:<port>` once it
accepts connections. `--user` (repeatable) adds a user whose subject and address are that
address. With `--parent-pid` it exits when that process is no longer its parent.
"""

import argparse
import asyncio

import uvicorn

from infra import local_process
from infra.oidc_local.app import create_app
from infra.oidc_local.provider import Provider, User

NAME = "oidc-local"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m infra.oidc_local", description="A local OpenID Connect provider."
    )
    parser.add_argument("--port", type=int, default=9400)
    parser.add_argument("--client-id", default="genecounsel")
    parser.add_argument("--client-secret", default="local-secret")
    parser.add_argument("--user", action="append", default=[], help="an address to sign in as")
    parser.add_argument("--mfa", action="store_true", help="users' amr says mfa")
    parser.add_argument("--parent-pid", type=int, default=None)
    parser.add_argument("--log-level", default="warning")
    return parser.parse_args(argv)


async def serve(args: argparse.Namespace) -> None:
    sock, url = local_process.listen(NAME, args.port)
    provider = Provider(issuer=url, client_id=args.client_id, client_secret=args.client_secret)
    for email in args.user:
        amr = ["pwd", "otp", "mfa"] if args.mfa else ["pwd"]
        provider.users[email] = User(sub=email, email=email, amr=amr)
    server = uvicorn.Server(
        uvicorn.Config(create_app(provider), log_level=args.log_level, lifespan="off")
    )
    await local_process.serve(NAME, server, sock, url, args.parent_pid)


def main(argv: list[str] | None = None) -> None:
    asyncio.run(serve(parse_args(argv)))


if __name__ == "__main__":
    main()
