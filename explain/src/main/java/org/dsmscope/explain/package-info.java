/**
 * EXPLAIN, communication analysis (seed 003, SPEC §8), as a plug-in of the replay engine: {@link
 * org.dsmscope.explain.DsmSimulator} replays a trace set through a page-based software DSM with lazy release
 * consistency and multiple writers (or, at cache-line granularity, an invalidation protocol) and writes the
 * page-fault and synchronization trace ({@link org.dsmscope.explain.FaultFormat}, "dsmscope-faults 2"); {@link
 * org.dsmscope.explain.Explainer} finds the immediate cause of every fault, the communication graph per page, the
 * explanations, the six access patterns, merged explanations and the communication profiles; {@link
 * org.dsmscope.explain.FalseSharing} names falsely shared lines; {@link org.dsmscope.explain.ExplainReport} writes
 * the text report, JSON and Graphviz DOT.
 */
package org.dsmscope.explain;
