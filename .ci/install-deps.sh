#!/usr/bin/env bash
# Installs what the test suite needs beyond the Maven build, idempotently:
#   - Debian's MariaDB server (10.11 on Debian 12): the second MariaDB version of the heterogeneous tests
#     (testkit MariaDbServer.debian()). The tests start their own mariadbd on loopback; the system service
#     is never started and autostart is disabled.
# Usage: bash .ci/install-deps.sh   (as root, or with sudo available). Safe to run again.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "install-deps: not root and no sudo: cannot install mariadb-server; MariaDB 10.11 tests will be skipped" >&2
    exit 0
  fi
fi

if [ -x /usr/sbin/mariadbd ] && [ -x /usr/bin/mariadb-install-db ]; then
  echo "install-deps: mariadb-server already installed ($(/usr/sbin/mariadbd --version))"
else
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: no apt-get: MariaDB 10.11 tests will be skipped" >&2
    exit 0
  fi
  # Keep package scripts from starting the service during the install (policy-rc.d: 101 = action forbidden).
  created_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod 755 /usr/sbin/policy-rc.d
    created_policy=1
  fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mariadb-server >/dev/null
  if [ "$created_policy" -eq 1 ]; then
    $SUDO rm -f /usr/sbin/policy-rc.d
  fi
  echo "install-deps: installed $(/usr/sbin/mariadbd --version)"
fi

# Never leave the system service running or enabled: tests use their own servers on random ports.
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  $SUDO systemctl disable --now mariadb >/dev/null 2>&1 || true
elif [ -x /usr/sbin/update-rc.d ]; then
  $SUDO update-rc.d mariadb disable >/dev/null 2>&1 || true
fi
if [ -f /run/mysqld/mysqld.pid ]; then
  pid="$(cat /run/mysqld/mysqld.pid)"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    echo "install-deps: stopping the system MariaDB service (pid $pid)"
    $SUDO kill -TERM "$pid" || true
  fi
fi
