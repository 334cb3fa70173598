#!/bin/bash
# Runs a command and prints the CPU time (user + system, seconds) of each thread of its process, sampled every
# second from /proc (the largest value seen per thread: threads that end keep their last sample).
# Usage: bench/scripts/thread_cpu.sh java ...   (the command's own process: run java directly, not a wrapper)
out=$(mktemp)
"$@" &
pid=$!
while kill -0 $pid 2>/dev/null; do
  for t in /proc/$pid/task/*; do
    n=$(cat $t/comm 2>/dev/null); s=$(awk '{print $14+$15}' $t/stat 2>/dev/null)
    [ -n "$s" ] && echo "${t##*/} $s $n"
  done >> "$out" 2>/dev/null
  sleep 1
done
wait $pid
rc=$?
awk '{tid=$1; s=$2; n=substr($0, index($0,$3)); if (s>m[tid]) m[tid]=s; nm[tid]=n}
     END {for (t in m) printf "%8.2f s  %s\n", m[t]/100, nm[t]}' "$out" | sort -rn | head -25
rm -f "$out"
exit $rc
