#!/usr/bin/env bash
# README command 1: install everything, then run the main job on the local stack of real services:
# start Kafka/PostgreSQL/Milvus (`pai-memory stack up`), migrate the database, round-trip a smoke test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/pai-memory stack up
.venv/bin/pai-memory db upgrade
.venv/bin/pai-memory smoke
.venv/bin/pai-memory stack status
