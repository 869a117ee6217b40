#!/usr/bin/env bash
# goldspiel's one entry point: sets up .venv (first run), builds the Cython
# core, then runs the main job or the tests.
#   ./run.sh            main job: policy tables on the small default (results/)
#   ./run.sh test       the whole test suite
#   ./run.sh pytest ARGS  the in-place test suite with pytest arguments
#   ./run.sh demo       a seeded Gold Thief game between bots, printed
#   ./run.sh play ARGS  play a game against the AI in the terminal (--help)
#   ./run.sh py ARGS    run the venv's python (e.g. ./run.sh py -m experiments.match)
set -euo pipefail
cd "$(dirname "$0")"
VENV="${GOLDSPIEL_VENV:-.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"
STAMP="$VENV/.goldspiel-deps"
if [ ! -f "$STAMP" ] || [ pyproject.toml -nt "$STAMP" ]; then
  "$PY" -m pip install -q --disable-pip-version-check --upgrade pip "setuptools>=77" wheel \
    "cython>=3" "numpy>=1.26"
  "$PY" -m pip install -q --disable-pip-version-check --no-build-isolation -e ".[test,ray]"
  touch "$STAMP"
fi
# Rebuild any changed extension in place (a no-op when nothing changed).
"$PY" setup.py -q build_ext --inplace -j 2 >/dev/null
cmd="${1:-main}"
[ $# -gt 0 ] && shift
case "$cmd" in
  main) exec "$PY" -m experiments.policy_tables "$@" ;;
  test) exec "$PY" -m pytest "$@" ;;
  pytest) exec "$PY" -m pytest -p no:cacheprovider "$@" ;;
  demo) exec "$PY" -m experiments.demo "$@" ;;
  play) exec "$PY" -m experiments.play "$@" ;;
  py)   exec "$PY" "$@" ;;
  *) echo "usage: ./run.sh [main|test|pytest|demo|play|py ...]" >&2; exit 2 ;;
esac
