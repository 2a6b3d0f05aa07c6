"""The client's first load: the initial JavaScript, and the first screen's LCP in a browser.

    .venv/bin/python -m infra.bench.first_load [--dist client/dist] [--runs 5]
        [--locale ja-JP] [--json results.json] [--sizes-only]

Builds nothing: it reads a client build (`client/dist`, made by `make setup` or
`npm run build`).

(a) Initial JavaScript: the entry script of `dist/index.html` and everything it imports
statically (`dist/.vite/manifest.json`, `imports`, followed to the end; the modulepreload
links of index.html are the same set and are checked against it), each file compressed with
gzip -9, in KB (1,000 bytes). This is what the browser loads before any screen can appear;
the budget is 110 KB (tests/test_client_first_load.py keeps it). Listed apart, not in the
total: what the first screen (`/`, the login screen) then loads on demand, its route module
with its own imports, and its translations (locales/<language>/{common,routes,errors}).

(b) LCP: one server (`python -m realtime`, `APP_ENV=test`, SQLite in a temporary directory,
demo data; tests/support/server.py, ended by PID) serving that build; Debian's chromium
(headless, driven by Playwright, the browser of tests/e2e) with Playwright's "Pixel 5"
profile (viewport, user agent, device scale, touch) and the CPU slowed down 4 times
(CDP `Emulation.setCPUThrottlingRate`), a new context (empty cache) per run, opens `/` and
waits for the login screen's e-mail field; then the largest-contentful-paint entries
(a PerformanceObserver, buffered) give the LCP, and the paint entries the FCP. Repeated
`--runs` times: median and worst. Nothing is asserted about times. See docs/benchmarks.md,
"Client first load".
"""

import argparse
import asyncio
import gzip
import json
import re
import statistics
import tempfile
from dataclasses import asdict, dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from playwright.async_api import async_playwright

from infra.bench.runner import machine_note
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.support.server import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "client" / "dist"
BUDGET_KB = 110.0
DEVICE = "Pixel 5"
CPU_SLOWDOWN = 4
# The first screen: its route module, and the translations it reads (client/src/i18n/namespaces.ts).
FIRST_ROUTE = "src/routes/Login.tsx"
FIRST_NAMESPACES = ("common", "routes", "errors")


class _Scripts(HTMLParser):
    """The entry module script and the modulepreload links of index.html."""

    def __init__(self) -> None:
        super().__init__()
        self.entry: list[str] = []
        self.preloads: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script" and values.get("type") == "module" and values.get("src"):
            self.entry.append(str(values["src"]).lstrip("/"))
        if tag == "link" and values.get("rel") == "modulepreload" and values.get("href"):
            self.preloads.append(str(values["href"]).lstrip("/"))


def gzip_size(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=9))


def manifest_of(dist: Path) -> dict[str, dict[str, Any]]:
    path = dist / ".vite" / "manifest.json"
    if not path.is_file():
        raise SystemExit(
            f"{path} is missing: build the client with build.manifest (client/vite.config.ts)"
        )
    manifest: dict[str, dict[str, Any]] = json.loads(path.read_text())
    return manifest


def static_closure(manifest: dict[str, dict[str, Any]], keys: list[str]) -> list[str]:
    """The manifest keys of `keys` and of everything they import statically, in load order."""
    seen: list[str] = []

    def visit(key: str) -> None:
        if key in seen:
            return
        seen.append(key)
        for imported in manifest[key].get("imports", []):
            visit(imported)

    for key in keys:
        visit(key)
    return seen


def initial_chunks(dist: Path) -> list[str]:
    """The files (relative to dist) of the entry script and its static imports."""
    manifest = manifest_of(dist)
    scripts = _Scripts()
    scripts.feed((dist / "index.html").read_text())
    if len(scripts.entry) != 1:
        raise SystemExit(f"index.html has {len(scripts.entry)} module scripts, expected one")
    entries = [key for key, chunk in manifest.items() if chunk.get("isEntry")]
    files = [manifest[key]["file"] for key in static_closure(manifest, entries)]
    if files[0] != scripts.entry[0] or set(files[1:]) != set(scripts.preloads):
        raise SystemExit(
            f"manifest and index.html disagree: {files} against {scripts.entry + scripts.preloads}"
        )
    return files


def chunk_name(file: str) -> str:
    """`assets/react-dom-BZfY8iWG.js` -> `react-dom`."""
    return re.sub(r"-[\w-]{8}\.js$", "", Path(file).name)


def first_screen_extra(dist: Path, locale: str) -> list[str]:
    """What the login screen loads after the entry: its route module's imports not already
    loaded, and its translations."""
    manifest = manifest_of(dist)
    entries = [key for key, chunk in manifest.items() if chunk.get("isEntry")]
    initial = set(static_closure(manifest, entries))
    route = [key for key in static_closure(manifest, [FIRST_ROUTE]) if key not in initial]
    language = locale.split("-")[0]
    words = [f"src/locales/{language}/{ns}.json" for ns in FIRST_NAMESPACES]
    return [manifest[key]["file"] for key in route + [key for key in words if key in manifest]]


@dataclass
class Sizes:
    initial: dict[str, float] = field(default_factory=dict)
    initial_total: float = 0.0
    first_screen: dict[str, float] = field(default_factory=dict)
    first_screen_total: float = 0.0


def measure_sizes(dist: Path, locale: str) -> Sizes:
    sizes = Sizes()
    for file in initial_chunks(dist):
        sizes.initial[file] = round(gzip_size(dist / file) / 1000, 2)
    sizes.initial_total = round(sum(sizes.initial.values()), 2)
    for file in first_screen_extra(dist, locale):
        sizes.first_screen[file] = round(gzip_size(dist / file) / 1000, 2)
    sizes.first_screen_total = round(sum(sizes.first_screen.values()), 2)
    return sizes


LCP_SCRIPT = """
() => new Promise((resolve) => {
  let lcp = null;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  // Two frames and a little more: the paint of the field just seen is reported.
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve({
    lcp, fcp: fcp ? fcp.startTime : null, screen: performance.now(),
  }), 300)));
})
"""


@dataclass
class Results:
    dist: str
    device: str = DEVICE
    cpu_slowdown: int = CPU_SLOWDOWN
    locale: str = "ja-JP"
    sizes: Sizes = field(default_factory=Sizes)
    runs: list[dict[str, float]] = field(default_factory=list)
    figures: dict[str, dict[str, float]] = field(default_factory=dict)
    machine: dict[str, Any] = field(default_factory=dict)


async def measure_lcp(base: str, runs: int, locale: str) -> list[dict[str, float]]:
    samples: list[dict[str, float]] = []
    async with async_playwright() as playwright:
        device = {
            key: value
            for key, value in playwright.devices[DEVICE].items()
            if key != "default_browser_type"
        }
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for _ in range(runs):
                context = await browser.new_context(**device, locale=locale)
                page = await context.new_page()
                cdp = await context.new_cdp_session(page)
                await cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
                await page.goto(f"{base}/", wait_until="load")
                await page.locator("input[type=email]").wait_for(state="visible", timeout=30_000)
                sample = await page.evaluate(LCP_SCRIPT)
                samples.append(
                    {key: float(value) for key, value in sample.items() if value is not None}
                )
                await context.close()
        finally:
            await browser.close()
    return samples


def run(options: argparse.Namespace) -> Results:
    dist = Path(options.dist).resolve()
    results = Results(dist=str(dist), locale=options.locale, machine=machine_note())
    results.sizes = measure_sizes(dist, options.locale)
    if options.sizes_only:
        return results
    with tempfile.TemporaryDirectory(prefix="first-load-") as workdir:
        server = ServerProcess(
            env={
                "DATABASE_URL": f"sqlite+aiosqlite:///{workdir}/app.db",
                "CLIENT_DIST": str(dist),
            },
            log_path=Path(workdir) / "server.log",
        )
        server.start()
        try:
            results.runs = asyncio.run(measure_lcp(server.url, options.runs, options.locale))
        finally:
            server.stop()
    for key in ("lcp", "fcp"):
        values = [sample[key] for sample in results.runs if key in sample]
        if values:
            results.figures[key] = {
                "median": statistics.median(values),
                "worst": max(values),
                "n": len(values),
            }
    return results


def report(results: Results) -> None:
    sizes = results.sizes
    print(f"client build: {results.dist}")
    print("initial JavaScript (entry and its static imports), gzip -9:")
    for file, kb in sizes.initial.items():
        print(f"  {chunk_name(file):<32} {kb:>7.1f} KB")
    print(f"  {'total':<32} {sizes.initial_total:>7.1f} KB   (budget {BUDGET_KB:.0f} KB)")
    print(
        f"then, for the first screen ({FIRST_ROUTE}, {results.locale} translations),"
        " not in the total:"
    )
    for file, kb in sizes.first_screen.items():
        print(f"  {chunk_name(file):<32} {kb:>7.1f} KB")
    print(f"  {'total':<32} {sizes.first_screen_total:>7.1f} KB")
    if results.figures:
        print(
            f"first screen in chromium, {results.device}, CPU {results.cpu_slowdown}x slower,"
            f" {len(results.runs)} runs:"
        )
        print(f"  {'':<6} {'median':>8} {'worst':>8}")
        for key, figure in results.figures.items():
            print(f"  {key.upper():<6} {figure['median']:>6.0f}ms {figure['worst']:>6.0f}ms")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--dist", default=str(DIST), help="the client build to measure (default client/dist)"
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--locale", default="ja-JP", help="the browser's language (ja-JP: the default language)"
    )
    parser.add_argument(
        "--sizes-only", action="store_true", help="only the initial JavaScript, no browser"
    )
    parser.add_argument("--json", type=Path, default=None)
    return parser.parse_args()


if __name__ == "__main__":
    arguments = parse_args()
    outcome = run(arguments)
    report(outcome)
    if arguments.json is not None:
        arguments.json.parent.mkdir(parents=True, exist_ok=True)
        arguments.json.write_text(json.dumps(asdict(outcome), indent=2))
