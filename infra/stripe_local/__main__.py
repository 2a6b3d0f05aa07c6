"""Run the local Stripe server as a process.

    python -m infra.stripe_local --port 12111 \\
        --webhook-url http://127.0.0.1:8000/stripe/webhook --webhook-secret whsec_local

Flags default from STRIPE_LOCAL_PORT, STRIPE_LOCAL_WEBHOOK_URL, STRIPE_LOCAL_WEBHOOK_SECRET
(and STRIPE_LOCAL_PUBLIC_URL, STRIPE_LOCAL_PARENT_PID). `--port 0` takes a free port. Binds
127.0.0.1 only and prints `stripe-local listening on http://127.0.0.1:<port>` once it
accepts connections. With `--parent-pid` it exits when that process is no longer its parent.
"""

import argparse
import asyncio
import logging
import os
import sys

import uvicorn

from infra import local_process
from infra.stripe_local.app import Config, create_app

NAME = "stripe-local"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    env = os.environ
    parser = argparse.ArgumentParser(
        prog="python -m infra.stripe_local",
        description="A local server speaking the parts of Stripe's API the product uses.",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=int(env.get("STRIPE_LOCAL_PORT", "12111")),
        help="port on 127.0.0.1 (0: a free one); env STRIPE_LOCAL_PORT",
    )
    parser.add_argument(
        "--webhook-url",
        default=env.get("STRIPE_LOCAL_WEBHOOK_URL") or None,
        help="where events are POSTed; env STRIPE_LOCAL_WEBHOOK_URL (unset: events only recorded)",
    )
    parser.add_argument(
        "--webhook-secret",
        default=env.get("STRIPE_LOCAL_WEBHOOK_SECRET", "whsec_local"),
        help="signing secret (whsec_...); env STRIPE_LOCAL_WEBHOOK_SECRET",
    )
    parser.add_argument(
        "--public-url",
        default=env.get("STRIPE_LOCAL_PUBLIC_URL") or None,
        help="base of the hosted page URLs (default http://127.0.0.1:<port>)",
    )
    parser.add_argument(
        "--parent-pid",
        type=int,
        default=int(env.get("STRIPE_LOCAL_PARENT_PID", "0")) or None,
        help="exit once this process is no longer our parent (it died, even by kill -9); "
        "env STRIPE_LOCAL_PARENT_PID",
    )
    parser.add_argument("--webhook-attempts", type=int, default=4)
    parser.add_argument("--webhook-backoff", type=float, default=0.5)
    parser.add_argument("--webhook-timeout", type=float, default=10.0)
    parser.add_argument("--log-level", default="warning")
    parser.add_argument("--access-log", action="store_true")
    return parser.parse_args(argv)


async def serve(args: argparse.Namespace) -> None:
    sock, url = local_process.listen(NAME, args.port)
    app = create_app(
        Config(
            webhook_url=args.webhook_url,
            webhook_secret=args.webhook_secret,
            public_url=(args.public_url or url).rstrip("/"),
            webhook_attempts=args.webhook_attempts,
            webhook_backoff=args.webhook_backoff,
            webhook_timeout=args.webhook_timeout,
        )
    )
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            log_level=args.log_level,
            access_log=args.access_log,
            lifespan="on",
        )
    )
    await local_process.serve(NAME, server, sock, url, args.parent_pid)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr)
    asyncio.run(serve(args))


if __name__ == "__main__":
    main()
