#!/bin/bash
# Runs a command and prints the CPU time (user + system, seconds) of each thread of its process, sampled every
# second from /proc (the largest value seen per thread: threads that end keep their last sample), then the sum.
# One read of all the threads' stat files a second, so that the sampling costs little CPU beside the command.
# Usage: bench/scripts/thread_cpu.sh java ...   (the command's own process: run java directly, not a wrapper)
out=$(mktemp)
"$@" &
pid=$!
while kill -0 $pid 2>/dev/null; do
  cat /proc/$pid/task/*/stat >> "$out" 2>/dev/null
  sleep 1
done
wait $pid
rc=$?
# a stat line: TID (NAME) STATE ... with utime and stime the 12th and 13th fields after the name (clock ticks)
sed -E 's/^([0-9]+) \((.*)\) (.*)$/\1|\2|\3/' "$out" \
  | awk -F'|' '{split($3, f, " "); s = f[12] + f[13]; if (s > m[$1]) m[$1] = s; nm[$1] = $2}
      END {for (t in m) {printf "%8.2f s  %s\n", m[t] / 100, nm[t]; sum += m[t]}
           printf "%8.2f s  (all threads)\n", sum / 100}' | sort -rn | head -26
rm -f "$out"
exit $rc
