"""Board in browsers: from a client's submit to its row on a counselor's board.

    .venv/bin/python -m infra.bench.board_browser [--bookings 20] [--warmup 2]
        [--time-calls] [--json results.json]

One server (`python -m realtime`, `APP_ENV=test`, one node, no Redis) on a PostgreSQL
database created for the run and dropped at the end; the server is a subprocess ended by
PID at the end, also on error or Ctrl-C. Debian's chromium (headless, driven by
Playwright, the browser of tests/e2e) holds two kinds of pages on the same machine clock:

- the board: one context signed in as the counselor `sato@demo-clinic.example` (counselor
  of `c-sato`; `/dev/token` gives a session past the second factor) with `/staff` open for
  the whole run, following the bookings window of today and the 27 days after;
- for each booking, a new context signed in as a new person who has consented, answered
  every required question of the free `cancer` service and agreed to the terms, and who
  holds a free time of `c-sato` inside the board's window (all set up through the server's
  own calls, tests/support/booking.py). Its page opens the real review step `/b/review` and
  its "Confirm booking" button is clicked (a free service: the booking goes straight to
  `confirmed`, no payment).

Measured, per booking (the first `--warmup` not counted):
- board: from the click on the client's page (a capturing `click` listener's `Date.now()`)
  to the board's DOM holding that appointment's row (`li[data-status="confirmed"]` with the
  link `/staff/appointments/<id>`), seen by a MutationObserver in the board page
  (`Date.now()` in its callback), and to the next animation frame after it (`frame`);
- push: from the same click to the `changes` push that brings the confirmed booking to a
  Python socket following the same window as the same counselor (wall clock, the same
  machine): the server's part (the client's call, the write, the push), without the
  board's rendering.
With `--time-calls` the server runs under infra.bench.profiled (the same module, its code
untouched) and the wall time of the submit's server calls is recorded for each counted
booking, from just before the click to its row on the board: the whole write
(`submit`, its commit and its pushes), and within it the v1 feed's publication
(`publish_feed`: its version raised, and the document computed when someone follows it)
and the window's changes (`publish_window_changes`).
Nothing is asserted about times. See docs/benchmarks.md, "Board: from a client's submit to
the counselor's board, in browsers".
"""

import argparse
import asyncio
import json
import math
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import socketio
from playwright.async_api import Browser, Page, async_playwright, expect

from infra.bench import servers
from infra.bench.booking_env import Harness, wait_ready
from infra.bench.fanout import percentile
from infra.bench.runner import machine_note
from infra.bench.servers import FreshDatabase, Managed
from realtime.auth import SESSION_COOKIE
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.support.booking import Person, free_slots, person
from tests.support.clients import sign_in

CLINIC_ID = "demo-clinic"
CLINIC_ZONE = ZoneInfo("Asia/Tokyo")
COUNSELOR_EMAIL = "sato@demo-clinic.example"
COUNSELOR_ID = "c-sato"
SERVICE = "cancer"  # free: "Confirm booking" books it at once, no payment
# The board follows today and the 27 days after it (client/src/staff/BoardScreen.tsx).
BOARD_DAYS = 28
BOARD_TITLE = "Bookings board"
BOARD_LOADING = "Loading the bookings…"
CONFIRM_BUTTON = "Confirm booking"
WAIT_MS = 30_000
# The server's part of a submit, timed with --time-calls (infra/bench/profiled.py names).
TIMED_CALLS = {
    "submit": "realtime.functions.booking:submit",
    "publish_feed": "realtime.changes:publish_feed",
    "publish_window_changes": "realtime.changes:publish_window_changes",
}

# Installed in the board page: `watch(id, status)` records, for a row of that appointment
# with that status, when the DOM first holds it and when the next frame starts after that.
BOARD_OBSERVER = """
() => {
  const pending = new Map();
  const seen = {};
  const check = () => {
    for (const [id, status] of pending) {
      const link = document.querySelector(
        `li.staff-booking[data-status="${CSS.escape(status)}"] ` +
          `a[href="/staff/appointments/${CSS.escape(id)}"]`,
      );
      if (link === null) continue;
      const key = `${id} ${status}`;
      seen[key] = { dom: Date.now() };
      pending.delete(id);
      requestAnimationFrame(() => { seen[key].frame = Date.now(); });
    }
  };
  new MutationObserver(check).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'],
  });
  window.__boardBench = { watch: (id, status) => { pending.set(id, status); check(); }, seen };
}
"""
SEEN = "key => window.__boardBench.seen[key]?.frame !== undefined"

# Installed in a client page: the time of the first click on the confirm button, taken by a
# capturing listener, before the page's own handler runs.
CLICK_RECORDER = """
label => {
  window.__submitAt = null;
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button !== null && window.__submitAt === null && button.textContent.includes(label)) {
      window.__submitAt = Date.now();
    }
  }, { capture: true });
}
"""


@dataclass
class Sample:
    """One booking's moments, epoch ms on the machine's clock."""

    appointment_id: str
    start: str
    clicked: float
    board_dom: float
    board_frame: float
    pushed: float

    @property
    def to_board(self) -> float:
        return self.board_dom - self.clicked

    @property
    def to_frame(self) -> float:
        return self.board_frame - self.clicked

    @property
    def to_push(self) -> float:
        return self.pushed - self.clicked


@dataclass
class Results:
    bookings: int
    warmup: int
    service: str
    machine: dict[str, Any]
    samples: list[dict[str, Any]] = field(default_factory=list)
    figures: dict[str, dict[str, float]] = field(default_factory=dict)
    # With --time-calls: each timed server call's durations (ms) in the counted bookings.
    server_calls: dict[str, dict[str, float]] = field(default_factory=dict)


def figures(values: Sequence[float]) -> dict[str, float]:
    return {
        "n": float(len(values)),
        "p50": percentile(values, 50),
        "p99": percentile(values, 99),
        "max": max(values) if values else math.nan,
        "min": min(values) if values else math.nan,
    }


def start_server(workdir: Path, database: FreshDatabase, time_calls: bool) -> Managed:
    """`python -m realtime` on `database` and a free port, its PUBLIC_URL the address the
    browsers open (the socket accepts that origin only); the per-address limits raised,
    as every page and socket of the run comes from 127.0.0.1. With `time_calls`, under
    infra.bench.profiled timing TIMED_CALLS."""
    port = servers.free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "DATABASE_URL", "PORT", "PUBLIC_URL")
    }
    env.update(
        APP_ENV="test",
        PORT=str(port),
        PUBLIC_URL=f"http://{servers.HOST}:{port}",
        DATABASE_URL=database.server_url,
        LOG_LEVEL="warning",
        PYTHONUNBUFFERED="1",
        SIGN_IN_LINKS_PER_IP="100000",
        HOLDS_PER_IP="100000",
        SOCKETS_PER_ADDRESS="100000",
        FILES_DIR=str(workdir / "files"),
    )
    command = [sys.executable, "-m", "realtime"]
    if time_calls:
        env["BENCH_TIME_OUT"] = str(time_prefix(workdir))
        env["BENCH_TIME"] = ",".join(TIMED_CALLS.values())
        command = [sys.executable, "-m", "infra.bench.profiled", "realtime"]
    return servers.start(
        "ours", command, env, workdir / f"server-board-browser-{port}.log", port, None
    )


def time_prefix(workdir: Path) -> Path:
    return workdir / "time"


def server_calls(workdir: Path, windows: Sequence[int]) -> dict[str, dict[str, float]]:
    """The timed calls of the measurement windows `windows` (numbered from 1), pooled."""
    pooled: dict[str, list[float]] = {name: [] for name in TIMED_CALLS}
    names = {target: name for name, target in TIMED_CALLS.items()}
    for window in windows:
        dump = time_prefix(workdir).with_name(f"time.{window}.time.json")
        calls: dict[str, list[float]] = json.loads(dump.read_text())
        for target, durations in calls.items():
            pooled[names[target]] += durations
    return {name: figures(durations) for name, durations in pooled.items()}


def window_days() -> tuple[date, date]:
    """The board's window: the clinic's today and the 27 days after it."""
    today = datetime.now(CLINIC_ZONE).date()
    return today, today + timedelta(days=BOARD_DAYS - 1)


class PushWatcher:
    """A socket of the counselor following the board's window: when each appointment's
    `confirmed` change arrived (epoch ms)."""

    def __init__(self) -> None:
        self.client = socketio.AsyncClient(reconnection=False)
        self.confirmed: dict[str, float] = {}
        self.arrived = asyncio.Event()
        self.client.on("changes", self._changes)

    async def _changes(self, push: dict[str, Any]) -> None:
        at = time.time() * 1000
        for change in push.get("changes", []):
            doc = change.get("doc") or {}
            if doc.get("status") == "confirmed":
                self.confirmed.setdefault(str(change["appointmentId"]), at)
        self.arrived.set()

    async def open(self, base: str, token: str, path: str) -> None:
        await self.client.connect(
            base, auth={"token": token}, transports=["websocket"], wait_timeout=30
        )
        reply = await self.client.call("subscribe", {"path": path}, timeout=30)
        if "snapshot" not in reply:
            raise RuntimeError(f"subscribe {path}: {str(reply)[:300]}")

    async def wait_for(self, appointment_id: str) -> float:
        async with asyncio.timeout(WAIT_MS / 1000):
            while appointment_id not in self.confirmed:
                self.arrived.clear()
                await self.arrived.wait()
        return self.confirmed[appointment_id]


async def open_board(browser: Browser, base: str, token: str) -> Page:
    context = await browser.new_context(locale="en-US", timezone_id="Asia/Tokyo")
    await context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": base}])
    page = await context.new_page()
    await page.goto(base + "/staff")
    await expect(page.get_by_role("heading", level=1, name=BOARD_TITLE)).to_be_visible(
        timeout=WAIT_MS
    )
    await expect(page.get_by_text(BOARD_LOADING, exact=True)).to_have_count(0, timeout=WAIT_MS)
    await page.evaluate(BOARD_OBSERVER)
    return page


async def hold_free_time(someone: Person, last: date) -> str:
    """Hold the first free time of c-sato up to `last` (clinic day); its start."""
    for slot in await free_slots(someone.sock, SERVICE, days=BOARD_DAYS + 1):
        start = datetime.fromisoformat(slot["start"])
        if COUNSELOR_ID not in slot["counselorIds"] or start.astimezone(CLINIC_ZONE).date() > last:
            continue
        if "data" in await someone.hold(slot["start"], COUNSELOR_ID):
            return str(slot["start"])
    raise RuntimeError(f"no free time of {COUNSELOR_ID} left in the board's window")


async def watch_board(board: Page, appointment_id: str, status: str) -> str:
    """Start looking for the row (before the action that should bring it); its key."""
    await board.evaluate(
        "([id, status]) => window.__boardBench.watch(id, status)", [appointment_id, status]
    )
    return f"{appointment_id} {status}"


async def seen_on_board(board: Page, key: str) -> dict[str, float]:
    """When the watched row came into the DOM, and the next frame after (epoch ms)."""
    await board.wait_for_function(SEEN, arg=key, timeout=WAIT_MS)
    seen: dict[str, float] = await board.evaluate("key => window.__boardBench.seen[key]", key)
    return seen


async def one_booking(
    browser: Browser, base: str, board: Page, watcher: PushWatcher, last: date, harness: Harness
) -> Sample:
    async with person(base, SERVICE, complete=True) as someone:
        start = await hold_free_time(someone, last)
        # Not measured: the hold is on the board before the submit, so what is timed is
        # the booking's change from "hold" to "confirmed".
        await seen_on_board(board, await watch_board(board, someone.appointment_id, "hold"))
        context = await browser.new_context(locale="en-US", timezone_id="Asia/Tokyo")
        try:
            await context.add_cookies(
                [{"name": SESSION_COOKIE, "value": someone.token, "url": base}]
            )
            page = await context.new_page()
            await page.goto(base + "/b/review")
            button = page.get_by_role("button", name=CONFIRM_BUTTON)
            await expect(button).to_be_enabled(timeout=WAIT_MS)
            await page.evaluate(CLICK_RECORDER, CONFIRM_BUTTON)
            key = await watch_board(board, someone.appointment_id, "confirmed")
            harness.open()
            await button.click()
            seen = await seen_on_board(board, key)
            pushed = await watcher.wait_for(someone.appointment_id)
            await harness.close()
            clicked = await page.evaluate("() => window.__submitAt")
            if clicked is None:
                raise RuntimeError("the click on the confirm button was not recorded")
            await page.wait_for_url("**/b/confirmed", timeout=WAIT_MS)
        finally:
            await context.close()
    return Sample(
        someone.appointment_id,
        start,
        float(clicked),
        float(seen["dom"]),
        float(seen["frame"]),
        pushed,
    )


async def run(options: argparse.Namespace) -> Results:
    workdir = Path(tempfile.mkdtemp(prefix="bench-board-browser-"))
    database = await FreshDatabase.create(options.pg_admin_url, "boardbrowser")
    server: Managed | None = None
    results = Results(options.bookings, options.warmup, SERVICE, machine_note())
    try:
        server = start_server(workdir, database, options.time_calls)
        harness = Harness(server, time_prefix(workdir) if options.time_calls else None, False)
        async with httpx.AsyncClient() as http:
            await wait_ready(server, http)
        base = f"http://{servers.HOST}:{server.port}"
        counselor = await sign_in(base, COUNSELOR_EMAIL)
        first, last = window_days()
        watcher = PushWatcher()
        await watcher.open(base, counselor.token, f"clinics/{CLINIC_ID}/bookings/{first}/{last}")
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            results.machine["chromium"] = browser.version
            try:
                board = await open_board(browser, base, counselor.token)
                for index in range(options.warmup + options.bookings):
                    sample = await one_booking(browser, base, board, watcher, last, harness)
                    counted = index >= options.warmup
                    print(
                        f"  {'booking' if counted else 'warm-up'} {index + 1}: board "
                        f"{sample.to_board:.0f} ms, frame {sample.to_frame:.0f} ms, push "
                        f"{sample.to_push:.0f} ms",
                        flush=True,
                    )
                    if counted:
                        results.samples.append(asdict(sample))
            finally:
                await browser.close()
        await watcher.client.disconnect()
    finally:
        if server is not None:
            server.stop()
        await database.drop()
    if options.time_calls:
        counted = range(options.warmup + 1, options.warmup + options.bookings + 1)
        results.server_calls = server_calls(workdir, counted)
    results.machine["loadavg_after"] = [round(value, 2) for value in os.getloadavg()]
    measured = [Sample(**s) for s in results.samples]
    results.figures = {
        "submit_to_board_ms": figures([s.to_board for s in measured]),
        "submit_to_board_frame_ms": figures([s.to_frame for s in measured]),
        "submit_to_push_ms": figures([s.to_push for s in measured]),
    }
    return results


def report(results: Results) -> None:
    machine = results.machine
    print(
        f"\nBoard in browsers: {results.bookings} bookings ({results.warmup} warm-up not "
        f"counted), service {results.service}, chromium {machine.get('chromium', '?')}, "
        f"{machine['cpus']} CPUs, load average {machine['loadavg']} before, "
        f"{machine['loadavg_after']} after, commit {machine['commit']}\n"
    )
    print("| from the client's click to | n | p50 ms | p99 ms | max ms | min ms |")
    print("| --- | --- | --- | --- | --- | --- |")
    names = {
        "submit_to_board_ms": "its row on the board (DOM)",
        "submit_to_board_frame_ms": "the next frame of the board",
        "submit_to_push_ms": "the push at a counselor's socket",
    }
    for key, name in names.items():
        f = results.figures[key]
        print(
            f"| {name} | {f['n']:.0f} | {f['p50']:.0f} | {f['p99']:.0f} | {f['max']:.0f} "
            f"| {f['min']:.0f} |"
        )


def report_calls(results: Results) -> None:
    if not results.server_calls:
        return
    print("\n| server call (per counted submit) | calls | p50 ms | p99 ms | max ms | min ms |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, f in results.server_calls.items():
        print(
            f"| `{name}` | {f['n']:.0f} | {f['p50']:.1f} | {f['p99']:.1f} | {f['max']:.1f} "
            f"| {f['min']:.1f} |"
        )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bookings", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--pg-admin-url", default=servers.PG_ADMIN_URL)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--time-calls",
        action="store_true",
        help="run the server under infra.bench.profiled and time the submit's server calls",
    )
    return parser.parse_args()


if __name__ == "__main__":
    arguments = parse_args()
    outcome = asyncio.run(run(arguments))
    report(outcome)
    report_calls(outcome)
    if arguments.json is not None:
        arguments.json.parent.mkdir(parents=True, exist_ok=True)
        arguments.json.write_text(json.dumps(asdict(outcome), indent=2))
