/**
 * The SMAIT trace format (seed 000 Appendix A) and everything that reads or writes trace files: the record
 * model ({@link org.dsmscope.trace.RecordKind}, {@link org.dsmscope.trace.CallType},
 * {@link org.dsmscope.trace.MemType}), the streaming {@link org.dsmscope.trace.TraceReader} and
 * {@link org.dsmscope.trace.TraceWriter}, trace sets ({@link org.dsmscope.trace.TraceSet}), compression
 * ({@link org.dsmscope.trace.Codec}) and dsmscope's documented extensions ({@link org.dsmscope.trace.SmaitFormat}).
 * Depends on nothing else of dsmscope.
 */
package org.dsmscope.trace;
