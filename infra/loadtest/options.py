"""The command line of `python -m infra.loadtest` (every option is described in
docs/loadtest.md)."""

import argparse
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Options:
    url: str
    patients: int
    staff: int
    duration: float
    ramp: float
    think: float
    saves: int
    service: str
    clinic: str
    staff_email: str
    window_days: int
    slot_choice: int
    hold_attempts: int
    call_timeout: float
    grace: float
    max_errors: int
    pay: bool
    loadtest_key: str | None
    staff_token: str | None
    json_path: Path | None
    html_path: Path | None
    quiet: bool


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m infra.loadtest",
        description="Simulated patients and staff against a running deployment.",
    )
    p.add_argument("--url", required=True, help="the deployment's base URL")
    p.add_argument("--patients", type=int, default=10, help="simulated patients at once")
    p.add_argument("--staff", type=int, default=2, help="staff boards following the window")
    p.add_argument("--duration", type=float, default=60, help="seconds of load, ramp included")
    p.add_argument("--ramp", type=float, default=10, help="seconds over which patients arrive")
    p.add_argument("--think", type=float, default=0.5, help="seconds a patient pauses per step")
    p.add_argument("--saves", type=int, default=3, help="live saves of the answers per booking")
    p.add_argument("--service", default="cancer", help="service id or entry alias")
    p.add_argument("--clinic", default="demo-clinic", help="clinic id")
    p.add_argument(
        "--staff-email", default="staff@demo-clinic.example", help="the boards' staff account"
    )
    p.add_argument("--window-days", type=int, default=28, help="days the boards follow (<= 62)")
    p.add_argument(
        "--slot-choice", type=int, default=50, help="a hold picks among this many earliest slots"
    )
    p.add_argument("--hold-attempts", type=int, default=5, help="holds tried per booking")
    p.add_argument("--call-timeout", type=float, default=10, help="seconds before a call fails")
    p.add_argument("--grace", type=float, default=2, help="seconds boards wait for last pushes")
    p.add_argument("--max-errors", type=int, default=0, help="errors tolerated before failing")
    p.add_argument(
        "--pay",
        action="store_true",
        help="allow a priced service: pay each booking on the local Stripe-compatible server",
    )
    p.add_argument(
        "--loadtest-key",
        default=os.environ.get("LOADTEST_KEY"),
        help="the deployment's LOADTEST_KEY (default: $LOADTEST_KEY): patients' sessions "
        "from /auth/loadtest-session instead of /dev/token",
    )
    p.add_argument(
        "--staff-token",
        default=os.environ.get("LOADTEST_STAFF_TOKEN"),
        help="a staff session's token for the boards (default: $LOADTEST_STAFF_TOKEN); "
        "needed where /dev/token does not exist",
    )
    p.add_argument("--json", type=Path, dest="json_path", help="write the JSON report here")
    p.add_argument("--html", type=Path, dest="html_path", help="write the HTML report here")
    p.add_argument("--quiet", action="store_true", help="no live progress line")
    return p


def parse(argv: list[str] | None = None) -> Options:
    args = parser().parse_args(argv)
    if not 1 <= args.window_days <= 62:
        parser().error("--window-days must be between 1 and 62")
    if args.loadtest_key and args.staff and not args.staff_token:
        parser().error("with --loadtest-key, the boards need --staff-token (or --staff 0)")
    if args.patients < 0 or args.staff < 0 or args.duration <= 0 or args.ramp < 0:
        parser().error("counts must be >= 0 and --duration > 0")
    return Options(**{k: v for k, v in vars(args).items()})
