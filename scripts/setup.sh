#!/usr/bin/env bash
# Installs everything pai-memory needs on a fresh machine (idempotent; fast when nothing changed):
#   - a Python >= 3.11 virtualenv in .venv with the project and its test tools (pip install -e '.[test]')
#   - Java 17+ and Maven for the local Kafka broker (apt-get when missing and running as root),
#     unless KAFKA_BOOTSTRAP_SERVERS points at an external Kafka.
#   - chromium and chromium-driver for the operator console's browser tests (apt-get when missing and
#     running as root; never fatal: without a browser those tests skip and say why).
# Environment: PYTHON=/path/to/python3.11+ to choose the interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."

# one setup at a time: the demo and the test command started together would both build .venv at once
mkdir -p var
if command -v flock >/dev/null 2>&1; then
  exec 9>var/setup.lock
  flock 9
fi

log() { printf 'setup: %s\n' "$*" >&2; }

pick_python() {
  local candidate
  for candidate in "${PYTHON:-}" python3.13 python3.12 python3.11 python3; do
    [ -n "$candidate" ] || continue
    command -v "$candidate" >/dev/null 2>&1 || continue
    if "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

java_major() {
  java -version 2>&1 | sed -n 's/.*version "\([0-9]*\)\(\.[0-9]*\)*.*/\1/p' | head -n1
}

ensure_java_maven() {
  if [ -n "${KAFKA_BOOTSTRAP_SERVERS:-}" ]; then
    log "KAFKA_BOOTSTRAP_SERVERS is set: no local broker, Java/Maven not needed"
    return 0
  fi
  local need=() major=""
  command -v java >/dev/null 2>&1 && major="$(java_major)"
  if [ -z "$major" ] || [ "$major" -lt 17 ]; then
    need+=(openjdk-17-jre-headless)
  fi
  command -v mvn >/dev/null 2>&1 || need+=(maven)
  [ "${#need[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing ${need[*]} with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    log "missing ${need[*]}: install Java 17+ and Maven (e.g. sudo apt-get install ${need[*]}),"
    log "or point KAFKA_BOOTSTRAP_SERVERS at an existing Kafka"
    exit 1
  fi
}

ensure_browser() {
  command -v chromedriver >/dev/null 2>&1 && { command -v chromium >/dev/null 2>&1 \
    || command -v chromium-browser >/dev/null 2>&1; } && return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing chromium chromium-driver with apt-get (console browser tests)"
    if ! { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium \
           chromium-driver >/dev/null 2>&1 \
         || { DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 \
              && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium \
                 chromium-driver >/dev/null 2>&1; }; }; then
      log "could not install chromium: the console browser tests will skip"
    fi
  else
    log "no chromium/chromedriver (apt-get install chromium chromium-driver): the console browser tests will skip"
  fi
  return 0
}

ensure_venv() {
  local python stamp want
  if [ ! -x .venv/bin/python ]; then
    python="$(pick_python)" || { log "Python 3.11+ is required (set PYTHON=...)"; exit 1; }
    log "creating .venv with $python ($("$python" --version 2>&1))"
    "$python" -m venv .venv
  fi
  stamp=.venv/.pai-memory-installed
  want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || [ ! -x .venv/bin/pai-memory ]; then
    log "installing the project and test tools into .venv"
    if ! { .venv/bin/python -m pip install -q --upgrade pip \
           && .venv/bin/python -m pip install -q -e '.[test]'; } > .venv/pip-install.log 2>&1; then
      tail -n 40 .venv/pip-install.log >&2
      log "pip install failed (full log: .venv/pip-install.log)"
      exit 1
    fi
    echo "$want" > "$stamp"
  fi
}

ensure_java_maven
ensure_browser
ensure_venv
log "ready"
