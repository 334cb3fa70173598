#!/usr/bin/env bash
# Scaling run for a many-core machine: serial against partitioned CIAT / CDAT on the generated 80 M-access
# fork-join trace (bench/RESULTS.md "Scaling on 16 cores"). Needs no Maven: a Java 17 runtime (JAVA, e.g. the bin/java
# of `jlink --add-modules java.base,java.instrument,java.naming,java.scripting,java.sql,jdk.management,jdk.unsupported,java.desktop`)
# and the cli jar (JAR). Writes its log to $OUT/log.txt (default /tmp/out) and works in /tmp/dsmw.
# usage: JAVA=… JAR=… bench/scripts/device_scaling.sh [INSTRUCTIONS_PER_THREAD]   (the issue's trace: 5000000)
set -u
INSTR=${1:-5000000}
D=$(cd "$(dirname "$0")" && pwd)
JAR=$(readlink -f "${JAR:-$D/../../cli/target/dsmscope.jar}")
J=${JAVA:-java}
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
W=/tmp/dsmw; rm -rf $W; mkdir -p $W; cd $W
LOG=$OUTD/log.txt
echo "cores: $(nproc)  $(grep -m1 'model name' /proc/cpuinfo)  $(grep MemTotal /proc/meminfo)" | tee $LOG
TIMEFORMAT='%R real %U user %S sys'
run() { # label, then command args; JOPTS from the environment
  local label=$1; shift
  local s=$(date +%s.%N)
  "$J" -Xmx24g ${JOPTS:-} -jar "$JAR" "$@" >$W/cmd.out 2>$W/cmd.err
  local rc=$?
  local e=$(date +%s.%N)
  printf "%-30s rc=%d wall=%.2f %s\n" "$label" $rc $(awk "BEGIN{print $e - $s}") "$(grep -o 'partitions, [a-z]*' $W/cmd.err | head -1)"
  [ $rc -ne 0 ] && tail -3 $W/cmd.err
  return 0
}
ciat() { # label n
  { time run "$1" ciat --progress --partitions $2 fj.16 ; } 2>&1 | grep -v '^ciat: [0-9]' | tee -a $LOG
}
{ time "$J" -jar "$JAR" gen forkjoin --name fj --threads 16 --instructions $INSTR --shared 0.3 >/dev/null; } 2>&1 | sed 's/^/gen: /' | tee -a $LOG
du -sh $W | tee -a $LOG
for n in 1 16 2 8 4; do
  ciat "ciat p=$n" $n
  mkdir -p ref$n; mv fj.16.ciat_report fj.16.memory ref$n/ 2>/dev/null
done
ciat "ciat p=1 (again)" 1
ciat "ciat p=16 (again)" 16
JOPTS=-Ddsmscope.partitions.mode=replays ciat "ciat p=16 replays" 16
JOPTS=-Ddsmscope.partitions.mode=replays ciat "ciat p=4 replays" 4
for n in 2 4 8 16; do [ -s ref1/fj.16.ciat_report ] && cmp -s ref1/fj.16.ciat_report ref$n/fj.16.ciat_report && cmp -s ref1/fj.16.memory ref$n/fj.16.memory && echo "ciat p=$n identical" || echo "ciat p=$n DIFFERS"; done | tee -a $LOG
cdat() { # label n
  { time run "$1" cdat --progress --partitions $2 --config "$D/dsm16.cfg" fj.16 ; } 2>&1 | grep -v '^cdat: [0-9]' | tee -a $LOG
}
for n in 1 16 4; do
  cdat "cdat p=$n" $n
  mkdir -p cref$n; mv fj.16*cdat* cref$n/ 2>/dev/null
done
JOPTS=-Ddsmscope.partitions.mode=replays cdat "cdat p=16 replays" 16
for n in 4 16; do { [ -n "$(ls cref1)" ] && diff -rq cref1 cref$n >/dev/null && echo "cdat p=$n identical" || echo "cdat p=$n DIFFERS"; } | tee -a $LOG; done
ls cref1 | tee -a $LOG
