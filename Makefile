# The two set-up commands of the README, and the pieces they are made of.
# Every target installs what it needs first (infra/setup.sh skips what is up to date).

PY := .venv/bin/python

.PHONY: run cluster test setup services lint test-python test-client bench bench-storm bench-booking bench-board bench-board-browser bench-schedule bench-first-load bench-memory loadtest

run: setup  ## the product on its embedded default: SQLite, no Redis, demo data, :8000
	$(PY) -m realtime

cluster: setup services  ## N web nodes behind HAProxy on PostgreSQL and Redis, :8080 (CLUSTER_ARGS="--nodes 5")
	$(PY) -m infra.cluster $(CLUSTER_ARGS)

test: setup services lint test-client test-python  ## every test, as CI runs it

setup:
	@bash infra/setup.sh

services:
	@bash infra/services.sh

lint:
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .
	.venv/bin/mypy
	npm run --silent typecheck
	npm run --silent lint

test-client:
	npm run --silent test

# Two workers, each taking whole files (their session servers and module fixtures stay whole):
# the suites mostly wait on server processes and the browser, so two halve the time on the
# 2-core CI machine (docs/architecture.md, "Tests").
test-python:  ## server suites on SQLite and PostgreSQL+Redis, multi-node, and the browser
	$(PY) -m pytest -q -p no:cacheprovider -n 2 --dist loadfile --durations=25

bench: setup services  ## fan-out latency and memory: ours against the python-socketio floor and Node's socket.io
	$(PY) -m infra.bench.fanout --json var/bench/fanout.json

bench-storm: setup services  ## reconnect storm: 2,000 users connect and resubscribe, 200 at once
	$(PY) -m infra.bench.storm --json var/bench/storm.json

bench-booking: setup services  ## holds/s with racing clients, vacancies-read, hold-to-watcher pushes
	$(PY) -m infra.bench.booking

bench-board: setup services  ## a large clinic's board: whole bookings feed against windowed changes
	$(PY) -m infra.bench.board

bench-board-browser: setup services  ## a client's submit to its row on a counselor's board, in chromium
	$(PY) -m infra.bench.board_browser --time-calls --json var/bench/board-browser.json

bench-schedule: setup services  ## a schedule change to the last of 500 watchers' pushes, 200 counselors
	$(PY) -m infra.bench.schedule --json var/bench/schedule.json

bench-memory: setup services  ## memory per idle subscribed socket of ours (2,000 sockets); MEMORY_ARGS="--tracemalloc" for where it goes
	$(PY) -m infra.bench.memprobe $(MEMORY_ARGS)

bench-first-load: setup services  ## the client's initial JS (KB gzip) and the first screen's LCP in chromium, mobile, CPU 4x slower
	$(PY) -m infra.bench.first_load --json var/bench/first-load.json

URL ?= http://127.0.0.1:8000
loadtest: setup  ## simulated patients and staff against URL (docs/loadtest.md): make loadtest URL=...
	$(PY) -m infra.loadtest --url $(URL) --json var/loadtest/run.json --html var/loadtest/run.html
