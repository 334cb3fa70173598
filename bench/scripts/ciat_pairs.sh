#!/bin/bash
# Whole-command timing of `dsmscope ciat` serial against `--partitions N` (issue 4 "parallel mode"), fresh JVMs
# alternating, each in a directory of its own holding links to the trace files, and a byte comparison of what
# the two wrote (report, memory file, JSON, standard output) after every pair.
# Usage: bench/scripts/ciat_pairs.sh TRACE_PREFIX PAIRS [N]      (from any directory, after a build)
# Prints per run: wall s, user s, system s, peak resident KB; per pair: serial wall / partitioned wall.
# With CAPACITY=1 each pair is followed by two serial runs at once, in directories of their own: what the VM's two
# cores give two independent jobs at that time ("capacity" = 2 x the pair's serial wall / the slower of the two;
# 2.00 when they do not slow each other), the ceiling for the pair's ratio.
set -u
T=$(readlink -f "$1"); PAIRS=$2; N=${3:-2}
JAR=$(readlink -f "$(dirname "$0")/../../cli/target/dsmscope.jar")
[ -f "$JAR" ] || { echo "ciat_pairs.sh: no $JAR (build first: mvn -B install -DskipTests)" >&2; exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/ciat-pairs.XXXXXX")
trap 'rm -rf "$W"' EXIT
base=$(basename "$T")
for d in serial parts cap1 cap2; do
  mkdir -p "$W/$d"
  for f in "$T".[0-9]*; do
    case "$f" in *[!0-9]) continue ;; esac
    ln -s "$f" "$W/$d/"
  done
done
run() { # dir options...
  local d=$1; shift
  (cd "$W/$d" && /usr/bin/time -o "../time-$d.txt" -f "%e %U %S %M" java -jar "$JAR" ciat "$@" --json o.json "$base" \
      > out.txt 2>&1) || { echo "ciat failed in $d:"; cat "$W/$d/out.txt"; exit 2; }
  cat "$W/time-$d.txt"
}
for i in $(seq 1 "$PAIRS"); do
  a=$(run serial) || { echo "$a"; exit 2; }
  b=$(run parts --partitions "$N") || { echo "$b"; exit 2; }
  same=yes
  for x in "$base.ciat_report" "$base.memory" o.json out.txt; do
    cmp -s "$W/serial/$x" "$W/parts/$x" || same="NO ($x differs)"
  done
  echo "$a $b $same" | awk -v n="$N" '{printf "serial %6.2f s (user %.2f sys %.2f, %d KB)   partitions %s %6.2f s (user %.2f sys %.2f, %d KB)   ratio %.2f   identical: %s\n", $1, $2, $3, $4, n, $5, $6, $7, $8, $1/$5, substr($0, index($0, $9))}'
  if [ "${CAPACITY:-0}" = 1 ]; then
    run cap1 > "$W/cap1.out" & p1=$!
    run cap2 > "$W/cap2.out" & p2=$!
    wait $p1 && wait $p2 || { cat "$W/cap1.out" "$W/cap2.out"; exit 2; }
    echo "$a $(cat "$W/cap1.out") $(cat "$W/cap2.out")" | awk '{m = $5 > $9 ? $5 : $9; printf "  two serial runs at once %6.2f s and %6.2f s (user %.2f, %.2f): capacity %.2f\n", $5, $9, $6, $10, 2 * $1 / m}'
  fi
done
