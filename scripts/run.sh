#!/usr/bin/env bash
# README command 1: install everything, then run the main job: the whole pipeline on the local stack
# of real services (`pai-memory demo`): Kafka/PostgreSQL/Milvus up, migrations, the five service
# processes, the bundled sample conversations published, processed, indexed and retrieved.
# The service keeps running until Ctrl-C. Extra arguments go to `pai-memory demo` (e.g. --no-wait).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/pai-memory demo "$@"
