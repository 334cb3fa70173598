package org.dsmscope.explain;

/**
 * The six access patterns of seed 003 (SPEC §8), inferred per interval between synchronization points of a page:
 * producers are the processors whose writes caused the faults, consumers the processors that then faulted.
 */
public enum Pattern {
    /** One producer, one consumer that does not write the page in turn. */
    SPSC("single-producer-single-consumer"),
    /** One producer, several consumers. */
    SPMC("single-producer-multiple-consumer"),
    /** Several producers, one consumer. */
    MPSC("multiple-producer-single-consumer"),
    /** Several producers, several consumers. */
    MPMC("multiple-producer-multiple-consumer"),
    /** The page passes from processor to processor, each consumer writing it next (one producer, one consumer). */
    MIGRATORY("migratory"),
    /** The processor's first touch of the page. */
    COLD_START("cold-start");

    /** The name reports use. */
    public final String label;

    Pattern(String label) {
        this.label = label;
    }

    /** The pattern of an interval with one or several producers and consumers (not migratory, not cold). */
    static Pattern of(boolean manyProducers, boolean manyConsumers) {
        return manyProducers ? (manyConsumers ? MPMC : MPSC) : (manyConsumers ? SPMC : SPSC);
    }
}
