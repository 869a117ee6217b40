#!/usr/bin/env bash
# goldspiel's one entry point: sets up .venv (first run), builds the Cython
# core, then runs the main job or the tests.
#   ./run.sh            main job: policy tables on the small default (results/)
#   ./run.sh test       builds the wheel, installs it into the venv and runs the
#                       whole test suite against it, from outside the checkout,
#                       on every core (pytest-xdist); extra arguments go to pytest
#   ./run.sh test --fast  the same for the fast tier (tests not marked slow)
#   ./run.sh pytest ARGS  the in-place test suite with pytest arguments
#   ./run.sh demo       a seeded Gold Thief game between bots, printed
#   ./run.sh play ARGS  play a game against the AI in the terminal (--help)
#   ./run.sh py ARGS    run the venv's python (e.g. ./run.sh py -m experiments.match)
set -euo pipefail
cd "$(dirname "$0")"
ROOT="$(pwd)"
VENV="${GOLDSPIEL_VENV:-.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
PY="$(cd "$(dirname "$VENV/bin/python")" && pwd)/python"
PIP=("$PY" -m pip -q --disable-pip-version-check)
BUILD_STAMP="$VENV/.goldspiel-build-deps"
STAMP="$VENV/.goldspiel-deps"
if [ ! -f "$BUILD_STAMP" ]; then
  "${PIP[@]}" install --upgrade pip "setuptools>=77" wheel "cython>=3" "numpy>=1.26"
  touch "$BUILD_STAMP"
fi
cmd="${1:-main}"
[ $# -gt 0 ] && shift

if [ "$cmd" = test ]; then
  # The suite runs once, against the installed wheel: build it (compiled
  # extensions, no generated C++), install it, copy tests/ to a temporary
  # directory and run pytest there, so the checkout is not on sys.path.
  rm -f dist/goldspiel-*.whl
  "${PIP[@]}" wheel --no-deps --no-build-isolation -w dist/ . >/dev/null
  WHEEL="$(ls dist/goldspiel-*.whl)"
  if [ ! -f "$STAMP" ] || [ pyproject.toml -nt "$STAMP" ]; then
    "${PIP[@]}" install --no-build-isolation "$WHEEL[test,ray,rl]"
    touch "$STAMP"
  fi
  "${PIP[@]}" install --force-reinstall --no-deps "$WHEEL"
  TMP="$(mktemp -d "${TMPDIR:-/tmp}/goldspiel-tests.XXXXXX")"
  trap 'rm -rf "$TMP"' EXIT
  cp -r tests "$TMP/tests"
  rm -f "$TMP"/tests/cy/*.so "$TMP"/tests/cy/.*.stamp
  rc=0
  (cd "$TMP" && env -u PYTHONPATH GOLDSPIEL_REPO="$ROOT" \
      GOLDSPIEL_WHEEL_TEST=1 "$PY" -m pytest -p no:cacheprovider -n auto --dist loadgroup \
      --durations=15 tests "$@") || rc=$?
  exit $rc
fi

if [ ! -f "$STAMP" ] || [ pyproject.toml -nt "$STAMP" ]; then
  "${PIP[@]}" install --no-build-isolation -e ".[test,ray,rl]"
  touch "$STAMP"
fi
# Rebuild any changed extension in place (a no-op when nothing changed).
"$PY" setup.py -q build_ext --inplace -j 2 >/dev/null
case "$cmd" in
  main) exec "$PY" -m experiments.policy_tables "$@" ;;
  pytest) exec "$PY" -m pytest -p no:cacheprovider "$@" ;;
  demo) exec "$PY" -m experiments.demo "$@" ;;
  play) exec "$PY" -m experiments.play "$@" ;;
  py)   exec "$PY" "$@" ;;
  *) echo "usage: ./run.sh [main|test|pytest|demo|play|py ...]" >&2; exit 2 ;;
esac
