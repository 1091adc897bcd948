#!/usr/bin/env bash
# Judges mutated saved states (tests/state_mutations.py) on an engine built with AddressSanitizer and
# UndefinedBehaviorSanitizer, so an out-of-bounds access or an overflow stops the run where it happens.
# Usage: tools/fuzz_sanitized.sh [cases (default 20000)] [seed (default 0)]
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${1:-20000}
seed=${2:-0}
build=build/sanitized
echo "building the sanitized engine in $build (about a minute) ..."
BORABORA_SANITIZE=1 python setup.py build --build-base "$build/tmp" --build-lib "$build/lib" > "$build.log" 2>&1 ||
  { tail -20 "$build.log"; exit 1; }
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
export PYTHONPATH="$PWD/$build/lib"
# run outside the source tree, whose borabora_sim/ would shadow the sanitized build
cp tests/state_mutations.py "$build/lib/"
cd "$build/lib" && python state_mutations.py --cases "$cases" --seed "$seed" --expect-module-under "$PWD"
