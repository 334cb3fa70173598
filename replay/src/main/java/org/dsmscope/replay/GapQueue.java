package org.dsmscope.replay;

/**
 * The threads of {@link LockstepRounds} that have no record in the rounds until a later round (SPEC §4
 * "Partitioning", replay/README.md "Partitioned replay"): a binary min-heap of their places in the rounds' order,
 * keyed by the round in which each has its next record (where its routed gap ends), ties by place, so that the
 * threads of one round come out in the rounds' order. Adding and taking one costs O(log threads); no allocation.
 */
final class GapQueue {
    /** The places, heap-ordered by {@link #end}, then by place. */
    private final int[] heap;
    /** Per place: the round of its next record, as last added (kept after it is taken). */
    private final long[] end;
    private int size;

    /** A queue of at most {@code places} places. */
    GapQueue(int places) {
        heap = new int[places];
        end = new long[places];
    }

    /** Empties the queue. */
    void clear() {
        size = 0;
    }

    /** The first round in which a queued place has its next record; {@link Long#MAX_VALUE} when none is queued. */
    long first() {
        return size == 0 ? Long.MAX_VALUE : end[heap[0]];
    }

    /** The round given for {@code place} when it was last added. */
    long end(int place) {
        return end[place];
    }

    /** Queues {@code place} (not queued now) until round {@code round}. */
    void add(int place, long round) {
        end[place] = round;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            int p = heap[parent];
            if (!before(place, p)) {
                break;
            }
            heap[i] = p;
            i = parent;
        }
        heap[i] = place;
    }

    /** Takes the place with the first round (the smallest place among those of that round); the queue is not empty. */
    int poll() {
        int top = heap[0];
        int last = heap[--size];
        int i = 0;
        for (;;) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(heap[child + 1], heap[child])) {
                child++;
            }
            if (!before(heap[child], last)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        if (size > 0) {
            heap[i] = last;
        }
        return top;
    }

    private boolean before(int a, int b) {
        long ea = end[a];
        long eb = end[b];
        return ea < eb || ea == eb && a < b;
    }
}
