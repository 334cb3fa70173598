/**
 * The SMAIT trace format (seed 000 Appendix A) and everything that reads or writes trace files: the record
 * model ({@link org.dsmscope.trace.RecordKind}, {@link org.dsmscope.trace.CallType},
 * {@link org.dsmscope.trace.MemType}), the streaming {@link org.dsmscope.trace.TraceReader} and
 * {@link org.dsmscope.trace.TraceWriter}, trace sets ({@link org.dsmscope.trace.TraceSet}), compression
 * ({@link org.dsmscope.trace.Codec}), dsmscope's documented extensions ({@link org.dsmscope.trace.SmaitFormat}), the
 * dump text format ({@link org.dsmscope.trace.TraceDump}) and conversion ({@link org.dsmscope.trace.TraceConverter}).
 * Sub-packages: {@code lackey} (importer) and {@code sidecar} (symbol file, data map).
 * Depends on nothing else of dsmscope.
 */
package org.dsmscope.trace;
