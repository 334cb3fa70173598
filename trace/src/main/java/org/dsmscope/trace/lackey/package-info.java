/**
 * Importer of Valgrind Lackey output into SMAIT trace sets: traces "collected by other tools" (seed 000 §7,
 * SPEC §2). The line-by-line mapping is documented in {@link org.dsmscope.trace.lackey.LackeyImporter} and the
 * trace module README.
 */
package org.dsmscope.trace.lackey;
