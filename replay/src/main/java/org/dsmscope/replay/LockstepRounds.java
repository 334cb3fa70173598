package org.dsmscope.replay;

import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;

/**
 * Lockstep rounds of a {@link ThreadEngine} (seed 001 §3's scheduling, SPEC §4, replay/README.md "Scheduling").
 * When every runnable thread has clock c and the next records of each are plain memory records, which advance a
 * clock by exactly one and change no state, the replay runs them one record per thread per round, in cyclic order
 * from the thread the engine picked, round after round; this runs the same records in the same order straight from
 * the readers' arrays, without choosing a thread per record.
 *
 * <p>In a routed partition ({@link Replay#runRouted}) a thread inside a {@link CallType#ROUTED_GAP} takes part with
 * one skipped access per round, and goes on with the records after the gap, through any number of gaps, in the
 * same window: the rounds end only where a thread's next record is not a data access or a gap (a call, the end of
 * its trace, a record the reader's runs do not cover). Skipped accesses are told in bulk: the ones between two
 * delivered accesses, of whatever threads, in one {@link Analysis#skipped} before the later one, so the numbers of
 * the delivered accesses stay the serial run's. When every thread of the rounds is inside a gap, all of them
 * advance at once by the shortest gap left. So a partition's rounds cost one step per thread per round in which
 * it gets an access, one per gap record, and no call per skipped access.
 */
final class LockstepRounds {
    /** Most rounds taken at once when a thread reconstructs its instruction stream, and the fewest worth taking. */
    private static final int FETCH_ROUNDS = 64;
    private static final int MIN_ROUNDS = 4;
    /** A words segment that ends the rounds where it is reached: its one word is not a memory record. */
    private static final long[] STOP = {-1L};

    private final ThreadEngine e;
    /** The runnable threads in round order. */
    private final int[] order;
    /** Per thread (by place in {@link #order}): its current run of words, null inside a gap, or {@link #STOP}. */
    private final long[][] segWords;
    /** Where the run was peeked, the next word of it, and its end, in {@link #segWords}. */
    private final int[] segStart;
    private final int[] segPos;
    private final int[] segEnd;
    private final long[] segHigh;

    LockstepRounds(ThreadEngine e) {
        this.e = e;
        int n = e.n;
        order = new int[n];
        segWords = new long[n][];
        segStart = new int[n];
        segPos = new int[n];
        segEnd = new int[n];
        segHigh = new long[n];
        gapEnd = new long[n];
        act = new int[n];
    }

    /**
     * Runs lockstep rounds from thread t (which the engine picked) at clock c. Returns false, having run nothing,
     * when they do not apply: a thread at another clock, resuming, stopped, in fetch mode or with a record held; one
     * runnable thread; a thread whose next record is not a data access or a gap (it may have read it: then it is
     * held, {@link ThreadEngine#heldKind}, or a gap the thread is now in, as running that thread would leave it).
     */
    boolean run(int t, long c) {
        ThreadEngine e = this.e;
        int m = 0;
        boolean fetches = false;
        for (int i = 0, u = t; i < e.n; i++, u = u + 1 == e.n ? 0 : u + 1) {
            if (e.state[u] == ThreadEngine.RUNNABLE) {
                // with exact reconstruction a memory record may take more than one clock: no rounds
                if (e.clock[u] != c || e.resume[u] || e.stopped[u] || e.fetchMode[u] || e.heldKind[u] != 0
                        || e.tail[u] || e.code != null && e.pcValid[u]) {
                    return false;
                }
                fetches |= e.pcValid[u];
                order[m++] = u;
            }
        }
        if (m < 2) {
            return false;
        }
        return fetches ? fetchRounds(m) : rounds(m, c);
    }

    /**
     * Rounds of threads some of which reconstruct their instruction stream (a fetch before each access): at most
     * {@value #FETCH_ROUNDS}, each record through {@link ThreadEngine#memory}, at least {@value #MIN_ROUNDS}, or none.
     */
    private boolean fetchRounds(int m) {
        ThreadEngine e = this.e;
        int rounds = FETCH_ROUNDS;
        for (int k = 0; k < m; k++) {
            if (e.gapLeft[order[k]] > 0) {
                return false; // routed traces have no instruction stream: not reached
            }
            TraceReader r = e.rd[order[k]];
            int a = r.peekRun(rounds);
            long[] w = r.runWords();
            int s = r.runStart();
            int j = 0;
            while (j < a && TraceReader.wordKind(w[s + j]) == RecordKind.MEMORY) {
                j++;
            }
            if (j < MIN_ROUNDS) {
                return false;
            }
            rounds = j;
            segWords[k] = w;
            segStart[k] = s;
            segHigh[k] = r.addressHigh();
        }
        for (int j = 0; j < rounds; j++) {
            for (int k = 0; k < m; k++) {
                long word = segWords[k][segStart[k] + j];
                int f1 = (int) (word >>> 32);
                e.memory(order[k], f1, MemType.bytes(f1), segHigh[k] | (word & 0xFFFFFFFFL));
            }
        }
        e.replayed += (long) rounds * m;
        for (int k = 0; k < m; k++) {
            e.rd[order[k]].skip(rounds);
            segWords[k] = null;
        }
        e.last = order[m - 1];
        return true;
    }

    /**
     * Rounds without instruction streams: what {@link ThreadEngine#memory} and {@link ThreadEngine#gap} do record
     * by record, with what every record of a round shares done once. Every record of the rounds is a delivered
     * access or a skipped one, one per thread per round, so the skipped accesses before a delivered one are counted
     * by place (unit {@code (round - c) * m + k} is thread order[k]'s of that round) and a thread inside a gap costs
     * nothing until the round its gap ends in ({@link #gapEnd}): a round in which no gap ends visits only the
     * threads with records ({@link #act}); one in which every thread is inside a gap is not visited. A thread's
     * clock ({@link ReplayContext#clock}) is advanced with each access delivered, and at the end of its gap and of
     * the rounds; busy counts and last instructions are set at the end.
     */
    private boolean rounds(int m, long c) {
        ThreadEngine e = this.e;
        for (int k = 0; k < m; k++) {
            if (!load(k)) {
                for (int i = 0; i < k; i++) {
                    segWords[i] = null; // peeked, not read
                }
                return false;
            }
        }
        if (!e.announced) {
            e.announce();
        }
        long[] gapLeft = e.gapLeft;
        long[] gapBytes = e.gapBytes;
        for (int k = 0; k < m; k++) {
            int u = order[k];
            if (segWords[k] == null) {
                gapEnd[k] = c + gapLeft[u];
            }
            bytes += gapBytes[u];
            gapBytes[u] = 0;
        }
        told = -1;
        this.c = c;
        this.m = m;
        long cj = c;
        int k = 0;
        listActive();
        rounds:
        for (;;) {
            if (cj < nextGapEnd) {
                if (na == 0) {
                    cj = nextGapEnd; // every thread inside a gap
                    continue;
                }
                int kept = 0;
                for (int a = 0; a < na; a++) {
                    k = act[a];
                    if (!deliver(k, cj)) {
                        break rounds;
                    }
                    if (segWords[k] != null) {
                        act[kept++] = k;
                    } else {
                        nextGapEnd = Math.min(nextGapEnd, gapEnd[k]); // went into a gap
                    }
                }
                na = kept;
                cj++;
                continue;
            }
            // a round in which a gap ends: every thread, listing them anew
            int listed = 0;
            long next = Long.MAX_VALUE;
            for (k = 0; k < m; k++) {
                if (segWords[k] == null && gapEnd[k] == cj) {
                    // its gap is over: this round's record is the first after it
                    int u = order[k];
                    gapLeft[u] = 0;
                    e.clock[u] = cj;
                    next(k);
                    if (segWords[k] == null) {
                        gapEnd[k] = cj + gapLeft[u];
                    }
                }
                if (segWords[k] != null) {
                    if (!deliver(k, cj)) {
                        break rounds;
                    }
                }
                if (segWords[k] == null) {
                    next = Math.min(next, gapEnd[k]);
                } else {
                    act[listed++] = k;
                }
            }
            na = listed;
            nextGapEnd = next;
            cj++;
        }
        // the rounds end before thread order[k] of round cj; order[0] always runs first
        long unit = (cj - c) * m + k;
        if (unit - told > 1 || bytes > 0) {
            tell(unit);
        }
        for (int i = 0; i < m; i++) {
            int u = order[i];
            long at = i < k ? cj + 1 : cj;
            long[] w = segWords[i];
            if (w == null) {
                gapLeft[u] = gapEnd[i] - at;
            } else if (w != STOP) {
                e.rd[u].skip(segPos[i] - segStart[i]);
            }
            segWords[i] = null;
            e.clock[u] = at;
            if (at > c) {
                e.lastInstr[u] = at - 1;
                e.cur.busy[u] += at - c;
                e.replayed += at - c;
            }
        }
        e.last = k > 0 ? order[k - 1] : order[m - 1];
        return true;
    }

    /** The rounds' first clock and number of threads. */
    private long c;
    private int m;
    /** Per thread inside a gap (by place): the round its gap ends in (the clock its next record runs at). */
    private final long[] gapEnd;
    /** The places of the threads with records (not inside a gap), in order; how many; the first gap end. */
    private final int[] act;
    private int na;
    private long nextGapEnd;
    /** Lists the threads with records ({@link #act}) and finds the first round a gap ends in. */
    private void listActive() {
        int na = 0;
        long next = Long.MAX_VALUE;
        for (int k = 0; k < m; k++) {
            if (segWords[k] == null) {
                next = Math.min(next, gapEnd[k]);
            } else {
                act[na++] = k;
            }
        }
        this.na = na;
        nextGapEnd = next;
    }

    /**
     * Delivers the next access of thread order[k] in round cj (after telling the skipped ones before it); false,
     * delivering nothing, if its next record is not a data access. Loads its next segment when its run is used up.
     */
    private boolean deliver(int k, long cj) {
        long word = segWords[k][segPos[k]];
        if (TraceReader.wordKind(word) != RecordKind.MEMORY) {
            return false; // its next record needs the engine: the rounds end before it
        }
        long unit = (cj - c) * m + k;
        if (unit - told > 1) {
            tell(unit);
        }
        told = unit;
        int u = order[k];
        int f1 = (int) (word >>> 32);
        long addr = segHigh[k] | (word & 0xFFFFFFFFL);
        e.accessSink.access(u, u, cj, f1, MemType.bytes(f1), (f1 & 0xF) == MemType.STORE, addr);
        e.clock[u] = cj + 1;
        int p = ++segPos[k];
        if (p == segEnd[k]) {
            e.rd[u].skip(p - segStart[k]);
            next(k);
            if (segWords[k] == null) {
                gapEnd[k] = cj + 1 + e.gapLeft[u];
            }
        }
        return true;
    }

    /** Unit of the rounds of the last delivered access (-1: none yet); gap bytes not told yet. */
    private long told;
    private long bytes;

    /**
     * Tells the analyses the skipped accesses from the one after unit {@link #told} to the one before
     * {@code unit}, in one {@link Analysis#skipped} (of several threads: thread and clock are the first's), with the
     * bytes of the gaps entered so far (with none, when the rounds end in a gap just entered).
     */
    private void tell(long unit) {
        long first = told + 1;
        long left = unit - first;
        do {
            int count = (int) Math.min(left, Integer.MAX_VALUE);
            e.accessSink.skipped(order[(int) (first % m)], c + first / m, count, bytes);
            bytes = 0;
            first += count;
            left -= count;
        } while (left > 0);
    }

    /** The next segment of thread order[k], whose current one is used up; {@link #STOP} if it has none. */
    private void next(int k) {
        if (!load(k)) {
            segWords[k] = STOP;
            segPos[k] = 0;
        }
        int u = order[k];
        bytes += e.gapBytes[u];
        e.gapBytes[u] = 0;
    }

    /**
     * Sets up the segment of thread order[k] from where it stands: the gap it is in, the run of memory words its
     * reader has next, or the gap record its reader has next (read). Returns false if its next record is none of
     * these: a record of another kind in the reader's run is left there; one that only {@link TraceReader#next}
     * gives is read and held for the engine ({@link ThreadEngine#heldKind}), as {@link ThreadEngine#step} holds one.
     */
    private boolean load(int k) {
        ThreadEngine e = this.e;
        int u = order[k];
        if (e.gapLeft[u] > 0) {
            segWords[k] = null;
            return true;
        }
        TraceReader r = e.rd[u];
        for (;;) {
            int a = r.peekRun(Integer.MAX_VALUE);
            if (a > 0) {
                long[] w = r.runWords();
                int s = r.runStart();
                if (TraceReader.wordKind(w[s]) != RecordKind.MEMORY) {
                    return false;
                }
                segWords[k] = w;
                segStart[k] = s;
                segPos[k] = s;
                segEnd[k] = s + a;
                segHigh[k] = r.addressHigh();
                return true;
            }
            int kind = r.next();
            if (kind != RecordKind.CALL || r.callType() != CallType.ROUTED_GAP) {
                e.replayed++;
                e.heldKind[u] = kind;
                return false;
            }
            long g = r.arg(1);
            // an unflushed gap before this one is told with this one's bytes added
            e.gapBytes[u] += r.arg(2) | r.arg(3) << 32;
            if (g > 0) {
                e.gapLeft[u] = g;
                segWords[k] = null;
                return true;
            }
        }
    }
}
