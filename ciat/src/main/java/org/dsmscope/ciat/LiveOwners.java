package org.dsmscope.ciat;

import org.dsmscope.ciat.table.PageOwners;

/**
 * The page owners of a routed live CIAT run (module README "Parallel analysis", live streams, and "Live plan"; SPEC
 * §4 "Partitioning"): every partition deals the pages at the same access from the same counts
 * ({@link PartitionPlan#live}); the first to deal them publishes the owners here, and the router
 * ({@link CiatRouter#live}) gives every partition every access until it reads them. The router reads a stream
 * ahead of the partitions, so an access it routes after the owners are published comes after the dealing access
 * in the serial order, in every partition. Thread-safe: partitions publish, router threads read.
 */
public final class LiveOwners {
    private volatile PageOwners owners;

    /** Publishes the owners a partition dealt (every partition deals the same; the first publication stays). */
    void publish(PageOwners dealt) {
        if (owners == null) {
            owners = dealt;
        }
    }

    /** The published owners, or null while the pages are not dealt yet. */
    PageOwners owners() {
        return owners;
    }
}
