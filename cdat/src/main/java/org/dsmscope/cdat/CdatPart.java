package org.dsmscope.cdat;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link Cdat#mergeParts} needs of one partition of a partitioned CDAT run (SPEC §4 "Partitioning",
 * cdat/README.md "Partitions"), as a compact serializable value that can leave the process that ran it (a Spark
 * task): the counts of its lines per phase, its directory entries and the pages placed by first reference (the same
 * in every partition). Not the machine's caches or directory.
 */
public final class CdatPart implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final ArrayList<CdatResult.PhaseCounts> phases;
    private final long lines;
    private final long firstTouchedPages;

    CdatPart(List<CdatResult.PhaseCounts> phases, long lines, long firstTouchedPages) {
        this.phases = new ArrayList<>(phases);
        this.lines = lines;
        this.firstTouchedPages = firstTouchedPages;
    }

    /** The partition's counts per phase. */
    List<CdatResult.PhaseCounts> phases() {
        return phases;
    }

    /** Directory entries the partition kept. */
    long lines() {
        return lines;
    }

    /** Pages placed by their first reference. */
    long firstTouchedPages() {
        return firstTouchedPages;
    }
}
