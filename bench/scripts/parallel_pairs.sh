#!/bin/bash
# Serial CIAT against two partitions that each replay the trace (what `dsmscope ciat --partitions 2` runs on trace
# files), in separate JVMs alternating, so that neither JVM's JIT sees the other mode (switching modes inside one
# JVM makes it recompile CIAT's access path on the cores the partitions need).
# Usage: bench/scripts/parallel_pairs.sh bench/target/benchmarks.jar TRACE_PREFIX PAIRS
# Prints per pair the median and fastest of 5 warm iterations of each JVM and their ratios (serial / parallel).
J=$1; T=$2; N=$3
for i in $(seq 1 "$N"); do
  a=$(java -Xmx6g -cp "$J" org.dsmscope.bench.ciat.ParallelTiming "$T" 6 1 2>&1 | grep summary | awk '{print $7" "$10}')
  b=$(java -Xmx6g -cp "$J" org.dsmscope.bench.ciat.ParallelTiming "$T" 6 r2 2>&1 | grep summary | awk '{print $7" "$10}')
  echo "$a $b" | awk '{printf "serial median %s min %s   r2 median %s min %s   ratios median %.2f min %.2f\n", $1, $2, $3, $4, $1/$3, $2/$4}'
done
