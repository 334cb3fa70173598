/**
 * The replay engine shared by CIAT, CDAT and EXPLAIN (seed 000 §3, SPEC §4): phases, pseudo clocks,
 * synchronization, the slice scheduler for multi-process traces and instruction-stream reconstruction. Analyses
 * plug in through {@link org.dsmscope.replay.Analysis}.
 */
package org.dsmscope.replay;
