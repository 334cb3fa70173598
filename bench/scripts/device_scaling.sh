#!/usr/bin/env bash
# Scaling run for a many-core machine: serial against partitioned CIAT / CDAT on the generated 80 M-access
# fork-join trace (bench/RESULTS.md "Scaling on 16 cores"), whole commands in fresh JVMs with the CPU of their
# threads by group (bench/scripts/jvm_threads.py), JIT variants of the 16-partition run, and warm figures in one JVM
# (RoutedCpu: what the partitions cost once the JIT's work is out). Needs no Maven: a Java 17 runtime (JAVA, e.g. the
# bin/java of `jlink --add-modules java.base,java.instrument,java.naming,java.scripting,java.sql,jdk.management,jdk.unsupported,java.desktop`),
# the cli jar (JAR), the bench module's jar (BENCH, without its dependencies) and python3; OLD, if given, a jar of
# another build's org/dsmscope classes, run serial and in 16 partitions beside this one (ciat and cdat). Where
# the runtime has jdk.jfr, JFR recordings of the 16-partition runs land beside the log. Writes its log to
# $OUT/log.txt (default /tmp/out) and works in /tmp/dsmw.
# With OLD and PAIRS=R it runs only R alternated rounds of OLD against this build (ciat 16 partitions, serial and
# cdat 16 partitions in the first two).
# usage: JAVA=… JAR=… BENCH=… [OLD=… [PAIRS=R]] bench/scripts/device_scaling.sh [INSTRUCTIONS_PER_THREAD]   (the issue's trace: 5000000)
set -u
INSTR=${1:-5000000}
D=$(cd "$(dirname "$0")" && pwd)
JAR=$(readlink -f "${JAR:-$D/../../cli/target/dsmscope.jar}")
BENCH=$(readlink -f "${BENCH:-$(ls $D/../target/dsmscope-bench-*.jar | head -1)}")
J=${JAVA:-java}
[ -n "${OLD:-}" ] && OLD=$(readlink -f "$OLD")
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
W=/tmp/dsmw; rm -rf $W; mkdir -p $W; cd $W
LOG=$OUTD/log.txt
echo "cores: $(nproc)  $(grep -m1 'model name' /proc/cpuinfo)  $(grep MemTotal /proc/meminfo)" | tee $LOG
# the launcher's options on a machine of more than 4 processors (bin/dsmscope), with a larger heap, and its late C2
L="-Xmx24g"
LATE="$L -XX:Tier4InvocationThreshold=50000 -XX:Tier4MinInvocationThreshold=6000 -XX:Tier4CompileThreshold=150000 -XX:Tier4BackEdgeThreshold=400000"
t() { python3 "$D/jvm_threads.py" "$@" | tee -a $LOG; }
# label n opts... : ciat in n partitions, outputs kept under ref<label>
ciat() { local label=$1 n=$2; shift 2
  t "ciat $label" "$J" "$@" ${MAINJ:--jar $JAR} ciat --no-progress --partitions $n --json o.json fj.16
  mkdir -p "r-$label"; mv fj.16.ciat_report fj.16.memory o.json "r-$label/" 2>/dev/null; }
cdat() { local label=$1 n=$2; shift 2
  t "cdat $label" "$J" "$@" ${MAINJ:--jar $JAR} cdat --no-progress --partitions $n --json o.json fj.16 "$D/dsm16.cfg"
  mkdir -p "c-$label"; mv fj.16*cdat* o.json "c-$label/" 2>/dev/null; }
t gen "$J" -jar "$JAR" gen forkjoin --name fj --threads 16 --instructions $INSTR --shared 0.3
du -sh $W | tee -a $LOG
if [ -n "${PAIRS:-}" ] && [ -n "${OLD:-}" ]; then # PAIRS=R: only R alternated rounds of this build against OLD
  O="-cp $OLD:$JAR org.dsmscope.cli.Main"
  for i in $(seq 1 "$PAIRS"); do
    MAINJ=$O ciat old-p16-$i 16 $L; ciat p16-$i 16 $L
    [ "$i" -le 2 ] && { MAINJ=$O ciat old-s1-$i 1 $L; ciat s1-$i 1 $L; }
    [ "$i" -le 2 ] && { MAINJ=$O cdat old-p16-$i 16 $L; cdat p16-$i 16 $L; }
  done
  MAINJ=$O cdat old-s1 1 $L; cdat s1 1 $L
  for r in r-*; do cmp -s r-s1-1/fj.16.ciat_report $r/fj.16.ciat_report && cmp -s r-s1-1/o.json $r/o.json \
    && echo "$r identical" || echo "$r DIFFERS"; done | tee -a $LOG
  for r in c-*; do diff -rq c-s1 $r >/dev/null && echo "$r identical" || echo "$r DIFFERS"; done | tee -a $LOG
  exit 0
fi
ciat s1 1 $L
ciat p16 16 $L
ciat p8 8 $L
ciat p4 4 $L
ciat p2 2 $L
ciat s1-late 1 $LATE
ciat p16-late 16 $LATE
ciat s1-again 1 $L
ciat p16-again 16 $L
ciat p16-r4 16 $L -Ddsmscope.routers=4
# a JFR recording of the 16-partition run, returned beside the log, where the runtime has jdk.jfr
JFR=; [ -x "$(dirname "$(command -v "$J")")/jfr" ] && JFR=1
[ -n "$JFR" ] && ciat p16-jfr 16 $L -XX:StartFlightRecording=filename=$OUTD/ciat16.jfr,settings=profile
# OLD: another build's classes alone (a jar of org/dsmscope), run on this jar's libraries
if [ -n "${OLD:-}" ]; then
  MAINJ="-cp $OLD:$JAR org.dsmscope.cli.Main" ciat old-s1 1 $L
  MAINJ="-cp $OLD:$JAR org.dsmscope.cli.Main" ciat old-p16 16 $L
fi
for r in r-*; do cmp -s r-s1/fj.16.ciat_report $r/fj.16.ciat_report && cmp -s r-s1/fj.16.memory $r/fj.16.memory \
  && cmp -s r-s1/o.json $r/o.json && echo "$r identical" || echo "$r DIFFERS"; done | tee -a $LOG
cdat s1 1 $L
cdat p16 16 $L
cdat p4 4 $L
cdat p16-r4 16 $L -Ddsmscope.routers=4
[ -n "$JFR" ] && cdat p16-jfr 16 $L -XX:StartFlightRecording=filename=$OUTD/cdat16.jfr,settings=profile
if [ -n "${OLD:-}" ]; then
  MAINJ="-cp $OLD:$JAR org.dsmscope.cli.Main" cdat old-s1 1 $L
  MAINJ="-cp $OLD:$JAR org.dsmscope.cli.Main" cdat old-p16 16 $L
fi
for r in c-*; do diff -rq c-s1 $r >/dev/null && echo "$r identical" || echo "$r DIFFERS"; done | tee -a $LOG
# warm, one JVM: noop (replay + routing + pipes only) and ciat, 16 partitions and serial
for a in "noop 16 4" "ciat 16 4" "noop 1 3"; do
  echo "RoutedCpu $a" | tee -a $LOG
  "$J" $L -cp "$JAR:$BENCH" org.dsmscope.bench.replay.RoutedCpu ${a%% *} fj.16 ${a#* } 2>&1 | tail -8 | tee -a $LOG
done
