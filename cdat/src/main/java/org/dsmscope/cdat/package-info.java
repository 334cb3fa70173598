/**
 * CDAT, the configuration dependent analysis tool (seed 000 §5 and Appendix C, SPEC §6), as a plug-in of the replay
 * engine: {@link org.dsmscope.cdat.Cdat} simulates a proposed DSM / NUMA machine (nodes of processors with data and
 * instruction caches, memory banks, a directory at each line's home node, one of the eight protocol variants of seed
 * 000 Table 2, a page placement policy) on the replayed accesses and counts where misses are satisfied, the
 * transactions they cause and the processors' activity. {@code config} holds the configuration file format.
 */
package org.dsmscope.cdat;
