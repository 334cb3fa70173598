package org.dsmscope.replay;

/**
 * The threads of {@link LockstepRounds} that have no record in the rounds until a later round (SPEC §4
 * "Partitioning", replay/README.md "Partitioned replay"): their places in the rounds' order, keyed by the round in
 * which each has its next record (where its routed gap ends), taken by round, ties by place, so that the threads of
 * one round come out in the rounds' order. No allocation.
 *
 * <p>The rounds take places in increasing rounds and add only rounds at or after the last one taken, so with at
 * most 64 places the queue is a calendar: the places of each of the next 64 rounds from the last one taken are one
 * bit mask per round (a ring of 64 masks, and a mask of the rounds that have places), so adding, taking and the
 * first round cost a few bit operations; places of later rounds wait in a binary heap (O(log threads)) and move
 * into the ring as the rounds come within 64 of the last one taken. With more places the heap holds them all.
 */
final class GapQueue {
    /** Rounds the ring holds from {@link #base} on. */
    private static final int RING = 64;
    /** Whether places fit one ring mask (at most {@value #RING}). */
    private final boolean ring;
    /** Per ring slot (round mod {@value #RING}): the places queued until that round. */
    private final long[] slot = new long[RING];
    /** Bit s: {@link #slot}[s] holds a place. */
    private long occupied;
    /** The ring holds the rounds from base to base + {@value #RING} - 1, every queued round below that. */
    private long base;
    /** The places of later rounds (all of them without the ring), heap-ordered by {@link #end}, then by place. */
    private final int[] heap;
    /** Per place: the round of its next record, as last added (kept after it is taken). */
    private final long[] end;
    private int size;
    /** The round of the heap's first place, {@link Long#MAX_VALUE} while the heap is empty. */
    private long heapFirst = Long.MAX_VALUE;

    /** A queue of at most {@code places} places, for rounds from 0 on. */
    GapQueue(int places) {
        ring = places <= RING;
        heap = new int[places];
        end = new long[places];
    }

    /** Empties the queue, for rounds from {@code from} on. */
    void clear(long from) {
        java.util.Arrays.fill(slot, 0L);
        occupied = 0;
        base = from;
        size = 0;
        heapFirst = Long.MAX_VALUE;
    }

    /**
     * The first round in which a queued place has its next record; {@link Long#MAX_VALUE} when none is queued. With
     * the ring empty it is {@link #heapFirst}, a field, so that no branch of this method or of {@link #poll}, which
     * the rounds' compiled loop inlines, is first taken when a thread's gap ending in the heap comes first
     * (replay/README.md "On few cores").
     */
    long first() {
        if (occupied != 0) {
            return base + Long.numberOfTrailingZeros(Long.rotateRight(occupied, (int) base & (RING - 1)));
        }
        return heapFirst;
    }

    /** The round given for {@code place} when it was last added. */
    long end(int place) {
        return end[place];
    }

    /** Queues {@code place} (not queued now) until round {@code round}, at or after the last round taken. */
    void add(int place, long round) {
        end[place] = round;
        if (ring && round - base < RING) {
            int s = (int) round & (RING - 1);
            slot[s] |= 1L << place;
            occupied |= 1L << s;
        } else {
            heapAdd(place);
        }
    }

    /** Takes the place with the first round (the smallest place among those of that round); the queue is not empty. */
    int poll() {
        if (!ring) {
            return heapPoll();
        }
        // the ring may start at the round taken (no later add comes before it), with the heap's places within reach
        long round = first();
        if (round != base) {
            base = round;
            if (size > 0) {
                fromHeap();
            }
        }
        int s = (int) round & (RING - 1);
        long places = slot[s];
        int place = Long.numberOfTrailingZeros(places);
        places &= places - 1;
        slot[s] = places;
        if (places == 0) {
            occupied &= ~(1L << s);
        }
        return place;
    }

    /** Moves the heap's places whose rounds lie within the ring's reach from {@link #base} into the ring. */
    private void fromHeap() {
        while (size > 0 && end[heap[0]] - base < RING) {
            int p = heapPoll();
            int s = (int) end[p] & (RING - 1);
            slot[s] |= 1L << p;
            occupied |= 1L << s;
        }
    }

    private void heapAdd(int place) {
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
        heapFirst = end[heap[0]];
    }

    private int heapPoll() {
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
        heapFirst = size == 0 ? Long.MAX_VALUE : end[heap[0]];
        return top;
    }

    private boolean before(int a, int b) {
        long ea = end[a];
        long eb = end[b];
        return ea < eb || ea == eb && a < b;
    }
}
