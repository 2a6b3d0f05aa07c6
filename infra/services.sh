#!/usr/bin/env bash
# What the test suite needs besides the project's packages: PostgreSQL and Redis running
# (started if installed but down), Debian's chromium for the browser tests, a CJK font so
# that Japanese text in the browser tests' screenshots is drawn (without one it shows as boxes),
# zbarimg, which reads the enrolment's QR code back from a screenshot, and Debian's HAProxy,
# the balancer of `make cluster` and tests/test_cluster.py (docs/operations.md).
set -euo pipefail

if command -v pg_ctlcluster >/dev/null && ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  echo "services: starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
fi
if command -v redis-server >/dev/null && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "services: starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
fi
if [ ! -x /usr/bin/chromium ]; then
  echo "services: installing Debian's chromium"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if ! dpkg -s fonts-noto-cjk >/dev/null 2>&1 || [ ! -x /usr/bin/zbarimg ]; then
  echo "services: installing Debian's Noto CJK fonts and zbar-tools"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk zbar-tools >/dev/null
fi
if [ ! -x /usr/sbin/haproxy ]; then
  echo "services: installing Debian's haproxy"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
fi
for _ in $(seq 1 30); do
  pg_isready -h 127.0.0.1 -p 5432 -q && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null && exit 0
  sleep 1
done
echo "services: PostgreSQL or Redis did not come up" >&2
exit 1
