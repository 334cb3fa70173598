/**
 * CDAT's traffic traces (seed 000 Appendix C, SPEC §6): the transaction codes and names ({@link
 * org.dsmscope.trace.cdat.Txn}), and the writer and reader of the general trace (one file per processor) and the
 * detailed trace (one file), which CDAT writes and TDAT reads.
 */
package org.dsmscope.trace.cdat;
