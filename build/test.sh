#!/usr/bin/env bash
# The whole test suite, as the README's quickstart runs it: test dependencies first, then every module's tests.
set -euo pipefail

ROOT="$(cd -P "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if [ -f .ci/install-deps.sh ]; then
  bash .ci/install-deps.sh
else
  echo "build/test.sh: .ci/install-deps.sh not present; tests that need extra databases will say so" >&2
fi

mvn -B verify "$@"
