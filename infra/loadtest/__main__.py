"""`python -m infra.loadtest --url URL ...`: run, write the reports, exit 0 only when the
integrity checks pass and the errors stay within --max-errors (docs/loadtest.md)."""

import asyncio
import json
import sys
from typing import Any

from infra.loadtest.html import render
from infra.loadtest.options import parse
from infra.loadtest.patient import NO_FREE_SLOT
from infra.loadtest.run import run


def verdict(report: dict[str, Any]) -> str:
    fresh = report["freshness"]["after_call"]
    booked = report["counts"].get("bookings confirmed", 0)
    integrity = "ok" if report["integrity"]["passed"] else "FAILED"
    return (
        f"{'PASS' if report['passed'] else 'FAIL'}: {booked} booked, "
        f"{report['error_total']} errors, freshness p50 {fresh['p50_ms']} ms "
        f"p99 {fresh['p99_ms']} ms, integrity {integrity}"
    )


def main(argv: list[str] | None = None) -> int:
    options = parse(argv)
    report = asyncio.run(run(options))
    if options.json_path is not None:
        options.json_path.parent.mkdir(parents=True, exist_ok=True)
        options.json_path.write_text(json.dumps(report, indent=2, ensure_ascii=False))
    if options.html_path is not None:
        options.html_path.parent.mkdir(parents=True, exist_ok=True)
        options.html_path.write_text(render(report), encoding="utf-8")
    full = report["counts"].get(NO_FREE_SLOT, 0)
    if full:
        print(
            f"warning: {full} bookings found no free slot in the window: "
            "widen --window-days or use a fresh database (docs/loadtest.md)",
            file=sys.stderr,
        )
    print(verdict(report), file=sys.stderr)
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
