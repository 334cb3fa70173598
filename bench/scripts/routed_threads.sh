#!/bin/bash
# Whole-command CPU by thread of `dsmscope ciat` (or `cdat`), serial or partitioned, in fresh JVMs, variants alternating round
# by round: per run the wall time, the JVM's user + system CPU, its system CPU, and the CPU of its threads by group
# (main: the command's thread, which runs the prescan and partition 0; part: the other partitions' threads;
# router; C2 and C1 compiler threads; GC; other), sampled once a second from /proc, the load average, and whether
# its JSON equals the first variant's of that round; at the end each variant's medians.
# Usage: bench/scripts/routed_threads.sh TRACE_PREFIX ROUNDS 'LABEL N [OTHER.jar] [JAVA_OPTION ...]' ...
#   e.g. bench/scripts/routed_threads.sh fj.16 5 'serial 1' 'p2 2' 'p2-r1 2 -Ddsmscope.routers=1' 'old2 2 /tmp/old.jar'
# JAR: the cli jar of variants that name none (default cli/target/dsmscope.jar); JAVA: the java to run (default
# java); -Xmx4g comes before the variant's options; CMD=cdat CFG=FILE: `dsmscope cdat` with configuration FILE
# instead of `ciat`.
set -u
T=$(readlink -f "$1"); ROUNDS=$2; shift 2
JAR=$(readlink -f "${JAR:-$(dirname "$0")/../../cli/target/dsmscope.jar}")
[ -f "$JAR" ] || { echo "routed_threads.sh: no $JAR (build first: mvn -B -pl cli -am package -DskipTests)" >&2; exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/routed-threads.XXXXXX")
trap 'rm -rf "$W"' EXIT
for f in "$T".[0-9]*; do
  case "$f" in *[!0-9]) continue ;; esac
  ln -s "$f" "$W/"
done
base=$(basename "$T")
cd "$W" || exit 2
run() { # label parts options...
  local label=$1 n=$2 jar=$JAR; shift 2
  case "${1:-}" in *.jar) jar=$(readlink -f "$1"); shift ;; esac
  rm -f s.txt o.json
  /usr/bin/time -o t.txt -f "%e %U %S" "${JAVA:-java}" -Xmx4g "$@" -jar "$jar" "${CMD:-ciat}" --no-progress \
      --partitions "$n" --json o.json "$base" ${CFG:+"$CFG"} > out.txt 2>&1 &
  local tp=$! jp=
  while kill -0 $tp 2>/dev/null; do
    [ -z "$jp" ] && jp=$(pgrep -P $tp | head -1)
    [ -n "$jp" ] && cat /proc/$jp/task/*/stat >> s.txt 2>/dev/null
    sleep 1
  done
  wait $tp || { echo "$label failed:"; cat out.txt; exit 2; }
  same=same
  if [ -f first.json ]; then cmp -s o.json first.json || same=DIFFERS; else cp o.json first.json; fi
  touch s.txt
  sed -E 's/^([0-9]+) \((.*)\) (.*)$/\1|\2|\3/' s.txt | awk -F'|' -v l="$label" -v s=$same -v t="$(cat t.txt)" \
      -v ld="$(cut -d' ' -f1 /proc/loadavg)" '
    {split($3, f, " "); v = f[12] + f[13]; if (v > m[$1]) m[$1] = v; nm[$1] = $2}
    END {for (k in m) {n = nm[k]; g = "other"
           if (n ~ /^java/) g = "main"; else if (n ~ /replay/) g = "part"; else if (n ~ /router/) g = "router"
           else if (n ~ /C2/) g = "C2"; else if (n ~ /C1/) g = "C1"; else if (n ~ /GC|G1/) g = "GC"
           c[g] += m[k] / 100}
         split(t, a, " ")
         printf "%-12s wall %7.2f cpu %6.2f sys %5.2f | main %5.2f part %5.2f router %5.2f C2 %5.2f C1 %4.2f GC %4.2f other %4.2f | load %s | %s\n",
           l, a[1], a[2] + a[3], a[3], c["main"], c["part"], c["router"], c["C2"], c["C1"], c["GC"], c["other"], ld, s}'
}
for i in $(seq 1 "$ROUNDS"); do
  rm -f first.json
  for v in "$@"; do
    # shellcheck disable=SC2086
    run $v | tee -a all.txt
  done
done
echo "medians over $ROUNDS rounds:"
awk '{l = $1; for (i = 2; i < NF; i++) if ($i ~ /^(wall|cpu|sys|main|part|router|C2|C1|GC|other)$/) {v[l, $i, ++n[l, $i]] = $(i + 1); k[$i] = 1}
      lab[l] = 1}
     END {for (l in lab) {printf "%-12s", l
            split("wall cpu sys main part router C2 C1 GC other", ks, " ")
            for (j = 1; j <= 10; j++) {c = ks[j]; m = n[l, c]; delete a
              for (i = 1; i <= m; i++) {x = v[l, c, i]; for (j2 = i - 1; j2 >= 1 && a[j2] > x; j2--) a[j2 + 1] = a[j2]; a[j2 + 1] = x}
              med = m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
              printf " %s %.2f", c, med}
            printf "\n"}}' all.txt
