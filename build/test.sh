#!/usr/bin/env bash
# The whole test suite, as the README's quickstart runs it: test dependencies first, then every module's tests.
set -euo pipefail

ROOT="$(cd -P "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash .ci/install-deps.sh

mvn -B verify "$@"
