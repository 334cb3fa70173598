package org.dsmscope.replay;

/**
 * The threads of {@link LockstepRounds} that have no record in the rounds until a later round (SPEC §4
 * "Partitioning", replay/README.md "Partitioned replay"): their places in the rounds' order, keyed by the round in
 * which each has its next record (where its routed gap ends), taken by round, ties by place, so that the threads of
 * one round come out in the rounds' order. No allocation.
 *
 * <p>The rounds take places in increasing rounds and add only rounds at or after the last one taken, so with at
 * most 64 places the queue is a calendar: the places of each of the next {@value #RING} rounds from the last one
 * taken are one bit mask per round (a ring of masks, and {@value #WORDS} masks of the rounds that have places), and
 * the first round with places is kept in a field, so adding, taking and the first round cost a few bit operations
 * (finding the next round with places when one is emptied looks at the masks from there on); places of later rounds
 * wait in a binary heap (O(log threads)) and move into the ring as the rounds come within {@value #RING} of the last
 * one taken. With more places the heap holds them all. The ring reaches far enough that a routed partition's gaps
 * (on {@code gen forkjoin} traces in 16 partitions, a thread's gaps average some 50 accesses) rarely go to the heap.
 */
final class GapQueue {
    /** Rounds the ring holds from {@link #base} on. */
    private static final int RING = 256;
    /** Masks of {@link #occupied}. */
    private static final int WORDS = RING / 64;
    /** Whether places fit one ring mask (at most 64). */
    private final boolean ring;
    /** Per ring slot (round mod {@value #RING}): the places queued until that round. */
    private final long[] slot = new long[RING];
    /** Bit s mod 64 of mask s / 64: {@link #slot}[s] holds a place. */
    private final long[] occupied = new long[WORDS];
    /** The ring holds the rounds from base to base + {@value #RING} - 1, every queued round below that. */
    private long base;
    /** The first round with places in the ring, {@link Long#MAX_VALUE} while the ring is empty. */
    private long ringFirst = Long.MAX_VALUE;
    /** The places of later rounds (all of them without the ring), heap-ordered by {@link #end}, then by place. */
    private final int[] heap;
    /** Per place: the round of its next record, as last added (kept after it is taken). */
    private final long[] end;
    private int size;
    /** The round of the heap's first place, {@link Long#MAX_VALUE} while the heap is empty. */
    private long heapFirst = Long.MAX_VALUE;

    /** Scratch of {@link #renumber}: the places queued, and the rounds by place. */
    private final int[] queued;
    private final long[] ends;

    /** A queue of at most {@code places} places, for rounds from 0 on. */
    GapQueue(int places) {
        ring = places <= 64;
        heap = new int[places];
        end = new long[places];
        queued = new int[places];
        ends = new long[places];
    }

    /**
     * Renumbers places 0 to m - 1 as {@code (p - s) mod m}, keeping their rounds, when the rounds' order comes to
     * start at place {@code s} (a call inside the rounds, {@link LockstepRounds}); the rounds already taken stay
     * taken. O(places queued + rounds queued).
     */
    void renumber(int s, int m) {
        int q = 0;
        for (int w = 0; w < WORDS; w++) {
            for (long o = occupied[w]; o != 0; o &= o - 1) {
                for (long b = slot[w << 6 | Long.numberOfTrailingZeros(o)]; b != 0; b &= b - 1) {
                    queued[q++] = Long.numberOfTrailingZeros(b);
                }
            }
        }
        for (int i = 0; i < size; i++) {
            queued[q++] = heap[i];
        }
        System.arraycopy(end, 0, ends, 0, m);
        for (int p = 0; p < m; p++) {
            end[p < s ? p + m - s : p - s] = ends[p];
        }
        clear(base);
        for (int i = 0; i < q; i++) {
            int p = queued[i] < s ? queued[i] + m - s : queued[i] - s;
            add(p, end[p]);
        }
    }

    /** Empties the queue, for rounds from {@code from} on. */
    void clear(long from) {
        for (int w = 0; w < WORDS; w++) {
            for (long o = occupied[w]; o != 0; o &= o - 1) {
                slot[w << 6 | Long.numberOfTrailingZeros(o)] = 0L;
            }
            occupied[w] = 0L;
        }
        base = from;
        ringFirst = Long.MAX_VALUE;
        size = 0;
        heapFirst = Long.MAX_VALUE;
    }

    /**
     * The first round in which a queued place has its next record; {@link Long#MAX_VALUE} when none is queued. Both
     * firsts are fields and every place in the ring comes before every place in the heap, so no branch of this
     * method or of {@link #poll}, which the rounds' compiled loop inlines, is first taken when a thread's gap ending
     * in the heap comes first (replay/README.md "On few cores").
     */
    long first() {
        return Math.min(ringFirst, heapFirst);
    }

    /** The round given for {@code place} when it was last added. */
    long end(int place) {
        return end[place];
    }

    /** Queues {@code place} (not queued now) until round {@code round}, at or after the last round taken. */
    void add(int place, long round) {
        end[place] = round;
        if (ring && round - base < RING) {
            toRing(place, round);
        } else {
            heapAdd(place);
        }
    }

    private void toRing(int place, long round) {
        int s = (int) round & (RING - 1);
        slot[s] |= 1L << place;
        occupied[s >>> 6] |= 1L << s;
        if (round < ringFirst) {
            ringFirst = round;
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
            occupied[s >>> 6] &= ~(1L << s);
            ringFirst = nextInRing(round);
        }
        return place;
    }

    /** The first round with places in the ring after {@code round} (the ring's base), or {@link Long#MAX_VALUE}. */
    private long nextInRing(long round) {
        int s = (int) round & (RING - 1);
        int w = s >>> 6;
        long bits = occupied[w] & -(1L << s); // the slots after s in its mask (s itself is empty now)
        for (int i = 0; i <= WORDS; i++) {
            if (bits != 0) {
                int t = ((w + i) & (WORDS - 1)) << 6 | Long.numberOfTrailingZeros(bits);
                return round + ((t - s) & (RING - 1));
            }
            bits = occupied[(w + i + 1) & (WORDS - 1)];
        }
        return Long.MAX_VALUE;
    }

    /** Moves the heap's places whose rounds lie within the ring's reach from {@link #base} into the ring. */
    private void fromHeap() {
        while (size > 0 && end[heap[0]] - base < RING) {
            int p = heapPoll();
            toRing(p, end[p]);
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
