/**
 * Synthetic trace sets for tests, benchmarks and {@code dsmscope gen}: fork-join thread programs
 * ({@link org.dsmscope.replay.gen.ForkJoinGen}) and TPC-style multi-process traces
 * ({@link org.dsmscope.replay.gen.ProcessGen}).
 */
package org.dsmscope.replay.gen;
