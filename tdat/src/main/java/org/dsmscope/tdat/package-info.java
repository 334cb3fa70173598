/**
 * TDAT, the time distribution analysis tool (seed 000 §6, seed 001 §5.5, SPEC §7): reads CIAT event traces and
 * CDAT general and detailed traffic traces as streams, puts the selected events into bins of a fixed number of
 * clocks by their clock field, and gives the total, the number of bins, the average, minimum and maximum rate
 * (events per clock per processor), their standard deviation, and the density and distribution functions of the rate
 * over the non-empty bins. {@link org.dsmscope.tdat.Tdat} runs it; {@link org.dsmscope.tdat.TimeFile} writes
 * {@code event.time}, {@link org.dsmscope.tdat.TextReport} the report and {@link org.dsmscope.tdat.TdatJson} the
 * JSON. Formats and definitions: the module README.
 */
package org.dsmscope.tdat;
