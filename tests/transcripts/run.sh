#!/bin/sh
# Runs the uckers binary on a transcript's input and compares its output,
# with the timing fields (nps, time, bench nps) masked, to the expected one.
# usage: run.sh <uckers> <name.in> <name.out>
set -eu
actual=$("$1" < "$2" | sed -E 's/ nps [0-9]+/ nps N/; s/ time [0-9]+/ time T/')
expected=$(cat "$3")
if [ "$actual" != "$expected" ]; then
  echo "transcript $2 differs:"
  printf '%s\n' "$expected" > "${TMPDIR:-/tmp}/uckers-expected.$$"
  printf '%s\n' "$actual" | diff "${TMPDIR:-/tmp}/uckers-expected.$$" - || true
  rm -f "${TMPDIR:-/tmp}/uckers-expected.$$"
  exit 1
fi
echo "transcript $2: 1 passed, 0 failed"
