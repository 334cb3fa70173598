/**
 * CIAT, the configuration independent analysis tool (seed 000 §4, seed 001 §5, SPEC §5), as a plug-in of the
 * replay engine: {@link org.dsmscope.ciat.Ciat}. Sub-packages hold one feature each: {@code mix} (instruction mix,
 * instruction stream, calls), {@code comm} (communication patterns), {@code age} (access age / working sets),
 * {@code memory} (memory usage), {@code report} (report, JSON and event trace files), {@code table} (the
 * primitive page map the per-location state hangs off).
 */
package org.dsmscope.ciat;
