#!/usr/bin/env bash
# README command 2 and .ci/run: install everything, then ruff, mypy, lint-imports (the layer contracts in
# .importlinter) and the full pytest suite against
# real services (started by the test session through the local stack, or given by DATABASE_URL /
# KAFKA_BOOTSTRAP_SERVERS / MEMORY_MILVUS_URI). Services the session started are stopped at its end.
# Extra arguments go to pytest (e.g. scripts/test.sh --run-slow -x).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== ruff" >&2
.venv/bin/ruff check .
echo "== mypy" >&2
.venv/bin/mypy
echo "== lint-imports" >&2
.venv/bin/lint-imports --no-cache
echo "== pytest" >&2
# pytest's own exit code is kept: 5 (no tests collected) fails like any other error.
.venv/bin/pytest --stack-down "$@"
