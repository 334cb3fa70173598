/**
 * The sidecar files beside a trace set (SPEC §2): the symbol file ({@link org.dsmscope.trace.sidecar.SymbolFile},
 * code addresses → class, method, source line, memory-access instruction offsets) and the data map
 * ({@link org.dsmscope.trace.sidecar.DataMap}, data addresses → type, field or element, allocation site; private
 * and shared ranges). Versioned text formats, documented in the classes and the trace module README.
 */
package org.dsmscope.trace.sidecar;
