#!/usr/bin/env bash
# Games per second of `uckers ladder work` with 1, 2 and 4 worker processes
# on one ladder database (docs/ladder.md):
#
#   bench/ladderdb_workers.sh UCKERS DB [PAIRS] [A] [B]
#
# DB: a SQLite file (removed before each run) or a postgresql:// URL of a
# server where the user may create and drop the databases DB_w1, DB_w2 ...
# (the URL's database name gets the suffix). Each run schedules PAIRS
# duplicate pairs (default 500) of A (beginner) against B (casual).
set -euo pipefail
uckers=$1 db=$2 pairs=${3:-500} a=${4:-beginner} b=${5:-casual}

fresh() {  # prints the URL of an empty database for run $1
  if [[ $db == postgres* ]]; then
    local base=${db%%\?*} query=""
    [[ $db == *\?* ]] && query="?${db#*\?}"
    local admin="${base%/*}/postgres$query" url="${base}_$1$query"
    psql -q -d "$admin" -c "DROP DATABASE IF EXISTS ${base##*/}_$1" \
      -c "CREATE DATABASE ${base##*/}_$1" >/dev/null
    echo "$url"
  else
    rm -f "$db" "$db-wal" "$db-shm"
    echo "$db"
  fi
}

for workers in 1 2 4; do
  url=$(fresh "w$workers")
  "$uckers" ladder add --db "$url" A "$a" >/dev/null
  "$uckers" ladder add --db "$url" B "$b" --pairs "$pairs" >/dev/null
  start=$(date +%s.%N)
  cpu0=$(awk '{print $3 + $4}' <(tr -d '\n' </proc/$$/stat | sed 's/.*) //' | cut -d' ' -f12-15))
  for ((i = 0; i < workers; ++i)); do
    "$uckers" ladder work --db "$url" --until_empty >/dev/null 2>&1 &
  done
  wait
  end=$(date +%s.%N)
  # The workers' CPU time (user + system, in clock ticks of the children).
  cpu1=$(awk '{print $3 + $4}' <(tr -d '\n' </proc/$$/stat | sed 's/.*) //' | cut -d' ' -f12-15))
  awk -v w="$workers" -v g=$((2 * pairs)) -v s="$start" -v e="$end" \
    -v cpu="$(((cpu1 - cpu0)))" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { printf "%d workers: %d games in %.2f s: %.0f games/s; workers CPU %.2f s (%.2f ms a game)\n",
             w, g, e - s, g / (e - s), cpu / hz, 1000 * cpu / hz / g }'
done
