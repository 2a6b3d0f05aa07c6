#!/usr/bin/env bash
# Install what the product needs on a fresh machine: the Python venv with pinned
# dependencies, the npm packages from the lockfile, and the client build.
# Re-running is cheap: each step is skipped while its inputs are unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -x .venv/bin/python ] || python3 -m venv .venv
stamps=.venv/.stamps
mkdir -p "$stamps"
fingerprint() { cat "$@" 2>/dev/null | sha256sum | cut -d' ' -f1; }
up_to_date() { [ "$(cat "$stamps/$1" 2>/dev/null)" = "$2" ]; }
mark() { echo "$2" > "$stamps/$1"; }

python_inputs=$(fingerprint requirements.lock pyproject.toml)
if ! up_to_date python "$python_inputs"; then
  echo "setup: installing Python packages"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
  mark python "$python_inputs"
fi

npm_inputs=$(fingerprint package-lock.json)
if [ ! -d node_modules ] || ! up_to_date npm "$npm_inputs"; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
  mark npm "$npm_inputs"
fi

mapfile -t client_files < <(find client -path client/dist -prune -o -path client/node_modules \
  -prune -o -type f -print | sort)
client_inputs=$(fingerprint "${client_files[@]}" realtime/contract.json package-lock.json)
if [ ! -f client/dist/index.html ] || ! up_to_date client "$client_inputs"; then
  echo "setup: building the client"
  npm run --silent build
  mark client "$client_inputs"
fi
