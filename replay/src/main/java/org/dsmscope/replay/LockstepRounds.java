package org.dsmscope.replay;

import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;

/**
 * Lockstep rounds of a {@link ThreadEngine} (seed 001 §3's scheduling, SPEC §4, replay/README.md "Scheduling").
 * When every runnable thread is at clock c or c + 1 and the next records of each are plain memory records, which
 * advance a clock by exactly one and change no state, the replay runs one record per thread per round in one
 * cyclic order, round after round: in round c the threads at c (from the thread the engine picked, the first after
 * the one run last), in every later round all of them, starting after the last thread of round c. This runs the
 * same records in the same order straight from the readers' arrays, without choosing a thread per record. The
 * threads already at c + 1 are holes of round c: the state a call leaves (it takes no clock, and the thread that
 * made it runs its next record after the other threads of its round), so the rounds go on after a call at the
 * cost of one look at every thread, not a round of single steps. A call that blocks and wakes no thread (a lock
 * taken or left with nobody waiting, {@link ThreadCalls#inRounds}) is replayed inside the rounds: the engine would
 * run the other threads of the round, then the caller, and start every later round after it, so the caller's turn
 * moves to the round's end and the places are renumbered from the thread after it ({@link #endTurn}), at O(threads)
 * instead of the rounds' end and start. A thread whose next record only the engine handles (another call, a wait's
 * resumption, the end of its trace, a record the reader's runs do not cover) ends the rounds just before its turn,
 * where the engine's own scheduling goes on.
 *
 * <p>In a routed partition ({@link Replay#runRouted}) a thread inside a {@link CallType#ROUTED_GAP} takes part with
 * one skipped access per round, and goes on with the records after the gap, through any number of gaps, in the
 * same window. Skipped accesses are told in bulk: the ones between two delivered accesses, of whatever threads, in
 * one {@link Analysis#skipped} before the later one, counted by place (every unit of the rounds is one thread's
 * access of one round), so the numbers of the delivered accesses stay the serial run's. A round visits only the
 * threads with records; the threads inside gaps wait in a {@link GapQueue} keyed by the round their gap ends in
 * (and a thread whose run of words is used up until the next round, where it loads what comes next),
 * and when every thread is inside a gap the rounds jump to the first gap end. So a partition's rounds cost one
 * step per delivered access, O(log threads) per gap, and no call per skipped access.
 *
 * <p>The rounds run a few at a time in {@link #batch}, a method called per batch, so that the JIT compiles them as
 * a method once instead of compiling a loop that runs for millions of accesses on stack (module README "Partitioned
 * replay", "On few cores").
 */
final class LockstepRounds {
    /** Most rounds taken at once when a thread reconstructs its instruction stream, and the fewest worth taking. */
    private static final int FETCH_ROUNDS = 64;
    private static final int MIN_ROUNDS = 4;
    /** A words segment that ends the rounds where it is reached: its one word is not a memory record. */
    private static final long[] STOP = {-1L};

    private final ThreadEngine e;
    /** The runnable threads in round order; the same threads from the picked one, while they are collected. */
    private final int[] order;
    private final int[] picked;
    /** Per thread (by place in {@link #order}): its current run of words, null inside a gap, or {@link #STOP}. */
    private final long[][] segWords;
    /** Where the run was peeked, the next word of it, and its end, in {@link #segWords}. */
    private final int[] segStart;
    private final int[] segPos;
    private final int[] segEnd;
    private final long[] segHigh;
    /** Per place: the thread is at c + 1 when the rounds begin (a hole of round c); how many places before each. */
    private final boolean[] hole;
    private final int[] holesBefore;
    /** The holes in all. */
    private int holes;
    /** The places with records (not inside a gap) in order, and the next round's list while it is made. */
    private int[] act;
    private int[] act2;
    /** The places whose gap ends in the current round, in order. */
    private final int[] ended;
    /** The places inside a gap (and the holes until round c + 1), by the round their next record runs in. */
    private final GapQueue gaps;
    /** Per place: its thread's clock when the rounds began (its busy clocks and accesses run are counted from it). */
    private final long[] from;
    /**
     * The place whose call the rounds replayed in the current round, its turn of the round still to come after the
     * round's last place ({@link #endTurn}); -1: none.
     */
    private int pend = -1;
    /** Scratch of {@link #renumber}. */
    private final int[] tmpInts;
    private final long[] tmpLongs;
    private final long[][] tmpWords;

    LockstepRounds(ThreadEngine e) {
        this.e = e;
        int n = e.n;
        order = new int[n];
        picked = new int[n];
        segWords = new long[n][];
        segStart = new int[n];
        segPos = new int[n];
        segEnd = new int[n];
        segHigh = new long[n];
        hole = new boolean[n];
        holesBefore = new int[n + 1];
        act = new int[n];
        act2 = new int[n];
        ended = new int[n];
        gaps = new GapQueue(n);
        from = new long[n];
        tmpInts = new int[n];
        tmpLongs = new long[n];
        tmpWords = new long[n][];
    }

    /**
     * Runs lockstep rounds from thread t (which the engine picked, holding no record and not resuming) at clock c.
     * Returns the accesses run (delivered or skipped), 0 when the rounds do not apply and nothing ran: a thread at
     * a clock other than c and c + 1, stopped, in fetch mode or in an instruction's tail; one runnable thread; t's
     * next record not a data access or a gap (it may have read it: then it is held, {@link ThreadEngine#heldKind},
     * or a gap t is now in, as running t would leave it). With instruction streams, only threads all at c, none
     * holding a record.
     */
    long run(int t, long c) {
        ThreadEngine e = this.e;
        int m = 0;
        int lastAtC = 0;
        boolean fetches = false;
        boolean uneven = false;
        for (int i = 0, u = t; i < e.n; i++, u = u + 1 == e.n ? 0 : u + 1) {
            if (e.state[u] == ThreadEngine.RUNNABLE) {
                long cu = e.clock[u];
                // with exact reconstruction a memory record may take more than one clock: no rounds
                if (cu != c && cu != c + 1 || e.stopped[u] || e.fetchMode[u] || e.tail[u]
                        || e.code != null && e.pcValid[u]) {
                    return 0;
                }
                if (cu == c) {
                    lastAtC = m;
                }
                uneven |= cu != c || e.resume[u] || e.heldKind[u] != 0;
                fetches |= e.pcValid[u];
                picked[m++] = u;
            }
        }
        this.m = m;
        if (m < 2) {
            return 0;
        }
        if (fetches) {
            if (uneven) {
                return 0;
            }
            System.arraycopy(picked, 0, order, 0, m);
            return fetchRounds(m);
        }
        // round c+1 and later start after the last thread at c: the threads after it, then those up to it
        int rest = m - 1 - lastAtC;
        System.arraycopy(picked, lastAtC + 1, order, 0, rest);
        System.arraycopy(picked, 0, order, rest, lastAtC + 1);
        return rounds(m, c, rest);
    }

    /**
     * Rounds of threads some of which reconstruct their instruction stream (a fetch before each access): at most
     * {@value #FETCH_ROUNDS}, each record through {@link ThreadEngine#memory}, at least {@value #MIN_ROUNDS}, or none.
     */
    private long fetchRounds(int m) {
        ThreadEngine e = this.e;
        int rounds = FETCH_ROUNDS;
        for (int k = 0; k < m; k++) {
            long gap = e.gapLeft[order[k]];
            if (gap > 0) {
                // a routed thread inside a gap: one skipped access per round up to its end (StreamGaps.round)
                if (gap < MIN_ROUNDS) {
                    return 0;
                }
                rounds = (int) Math.min(rounds, gap);
                segWords[k] = null;
                continue;
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
                return 0;
            }
            rounds = j;
            segWords[k] = w;
            segStart[k] = s;
            segHigh[k] = r.addressHigh();
        }
        for (int j = 0; j < rounds; j++) {
            for (int k = 0; k < m; k++) {
                if (segWords[k] == null) {
                    StreamGaps.round(e, order[k]);
                    continue;
                }
                long word = segWords[k][segStart[k] + j];
                int f1 = (int) (word >>> 32);
                e.memory(order[k], f1, MemType.bytes(f1), segHigh[k] | (word & 0xFFFFFFFFL));
            }
        }
        e.replayed += (long) rounds * m;
        for (int k = 0; k < m; k++) {
            if (segWords[k] != null) {
                e.rd[order[k]].skip(rounds);
            }
            segWords[k] = null;
        }
        e.last = order[m - 1];
        return (long) rounds * m;
    }

    /**
     * Rounds without instruction streams, from round c whose first thread is at place {@code first} (the places
     * before it are holes): what {@link ThreadEngine#memory} and {@link ThreadEngine#gap} do record by record, with
     * what every record of a round shares done once. Unit {@code (round - c) * m + k} is thread order[k]'s record
     * of that round, so the skipped accesses before a delivered one are counted by place (less the holes); a thread
     * inside a gap costs nothing until the round its gap ends in ({@link #gaps}): a round visits the threads with
     * records ({@link #act}) and those whose gap ends in it. A thread's clock ({@link ReplayContext#clock}) is
     * advanced with each access delivered, and at the end of its gap and of the rounds; busy counts and last
     * instructions are set at the end.
     */
    private long rounds(int m, long c, int first) {
        ThreadEngine e = this.e;
        int t = order[first];
        if (e.resume[t] || e.heldKind[t] != 0 || !load(first)) {
            return 0;
        }
        long[] gapLeft = e.gapLeft;
        int nh = 0;
        for (int k = 0; k < m; k++) {
            int u = order[k];
            hole[k] = e.clock[u] != c;
            from[k] = e.clock[u];
            holesBefore[k] = nh;
            if (hole[k]) {
                nh++;
            }
            if (k != first && (e.resume[u] || e.heldKind[u] != 0 || !load(k))) {
                segWords[k] = STOP; // the engine handles its next record: the rounds end before its turn
                segPos[k] = 0;
            }
        }
        holesBefore[m] = nh;
        holes = nh;
        if (!e.announced) {
            e.announce();
        }
        gaps.clear(c);
        int na = 0;
        for (int k = 0; k < m; k++) {
            int u = order[k];
            if (segWords[k] == null) {
                gaps.add(k, e.clock[u] + gapLeft[u]);
            } else if (hole[k]) {
                gaps.add(k, c + 1); // its first record is in round c + 1
            } else {
                act[na++] = k;
            }
        }
        this.na = na;
        told = -1;
        toldPlace = -1;
        toldRound = c;
        pend = -1;
        this.c = c;
        this.m = m;
        this.cj = c;
        int k;
        do {
            k = batch();
        } while (k < 0);
        long cj = this.cj;
        c = this.c; // calls inside the rounds renumber the places from a later round (endTurn)
        // the rounds end before thread order[k] of round cj, after at least thread order[first] of round c (or,
        // after a call inside the rounds, before the turn of the thread that made it)
        long unit = (cj - c) * m + k;
        for (int i = 0; i < m; i++) {
            if (segWords[i] == null && gapLeft[order[i]] > 0) {
                // the part of its gap run in the rounds: its bytes (the rest may be dropped, its thread stopped)
                int u = order[i];
                long rest = gaps.end(i) - Math.max(i < k ? cj + 1 : cj, hole[i] ? c + 1 : c);
                bytes += e.gapPiece(u, gapLeft[u], gapLeft[u] - rest);
                gapLeft[u] = rest;
            }
        }
        long left = skippedBefore(unit);
        if (left > 0 || bytes > 0) {
            tell(unit, left);
        }
        long ran = 0;
        for (int i = 0; i < m; i++) {
            int u = order[i];
            // a thread whose call the rounds replayed in round cj is still to run its record of round cj
            long at = i == pend ? cj : Math.max(i < k ? cj + 1 : cj, hole[i] ? c + 1 : c);
            long[] w = segWords[i];
            if (w != null && w != STOP) {
                e.rd[u].skip(segPos[i] - segStart[i]);
            }
            segWords[i] = null;
            e.clock[u] = at;
            long d = at - from[i];
            if (d > 0) {
                e.lastInstr[u] = at - 1;
                e.cur.busy[u] += d;
                e.replayed += d;
                ran += d;
            }
        }
        pend = -1;
        int lastPlace = k > 0 ? k - 1 : m - 1;
        if (cj == c) {
            while (lastPlace > 0 && hole[lastPlace]) {
                lastPlace--; // the last thread run in round c (place first at the latest)
            }
        }
        e.last = order[lastPlace];
        return ran; // every access run, delivered or skipped, advanced its thread's clock by one
    }

    /** The rounds' first clock and number of threads. */
    private long c;
    private int m;

    /** The number of threads of the rounds last tried. */
    int threads() {
        return m;
    }

    /** The current round, and the number of places with records in it ({@link #act}). */
    private long cj;
    private int na;

    /**
     * Loop iterations of one {@link #batch}, at the least: a round ends a batch once its rounds and places passed
     * come to this many. Kept small so that the JIT compiles {@link #batch} as a method, called per batch, long
     * before its loop's back edges would make it compile the loop on stack (replay/README.md "On few cores").
     */
    private static final int BATCH = 32;

    /**
     * Runs the rounds from round {@link #cj} on, a few at a time (about {@value #BATCH} places and rounds): in each,
     * the places with records and those whose gap ends in it, in order, each delivering its next access (after
     * telling the skipped ones before it); a place whose run is used up is queued until the next round, where it
     * loads its next segment (queued again if that is a gap) as a place whose gap ends does, so that batch loads
     * segments at one call (module README "On few cores"); every thread inside a gap makes the rounds jump to the
     * first gap end; a call {@link #callHere} replays moves its place's turn to the round's end ({@link #endTurn}).
     * Returns the place whose next record is not a data access, where the rounds end (in round {@link #cj}), or -1
     * after the batch's rounds.
     */
    private int batch() {
        ThreadEngine e = this.e;
        long[][] segWords = this.segWords;
        int[] segPos = this.segPos;
        int[] ended = this.ended;
        GapQueue gaps = this.gaps;
        Analysis sink = e.accessSink;
        long[] clock = e.clock;
        long cj = this.cj;
        int na = this.na;
        for (int passed = 0; passed < BATCH; cj++) {
            long next = gaps.first();
            if (cj < next && na == 0) {
                cj = next - 1; // every thread inside a gap: on to the first gap end
                passed++;
                continue;
            }
            int ne = 0;
            while (next == cj) {
                ended[ne++] = gaps.poll();
                next = gaps.first();
            }
            int[] act = this.act;
            int[] to = act2;
            int listed = 0;
            for (int a = 0, b = 0; a < na || b < ne; ) {
                int k;
                // the round whose record a segment loaded now holds: this one after a gap, the next after a run
                long at = cj;
                boolean load = false;
                if (b == ne || a < na && act[a] < ended[b]) {
                    k = act[a++];
                } else {
                    k = ended[b++];
                    if (segWords[k] == null) {
                        // its gap is over: this round's record is the first after it
                        int u = order[k];
                        if (e.gapLeft[u] > 0) {
                            bytes += e.gapBytes[u]; // all its bytes left (ThreadEngine.gapPiece of all)
                            e.gapBytes[u] = 0;
                            e.gapLeft[u] = 0;
                        }
                        clock[u] = cj;
                        load = true;
                    }
                }
                for (;;) {
                    if (load) {
                        next(k); // batch's one call that loads a segment: C2 inlines load once at most
                        if (segWords[k] == null) {
                            gaps.add(k, at + e.gapLeft[order[k]]);
                            break;
                        }
                        if (at != cj) {
                            to[listed++] = k; // a run or a record for the engine: its turn is in the next round
                            break;
                        }
                    }
                    long[] w = segWords[k];
                    int p = segPos[k];
                    long word = w[p];
                    if (TraceReader.wordKind(word) != RecordKind.MEMORY) {
                        if (w != STOP || pend >= 0 || !callHere(k, cj)) {
                            // its next record needs the engine: the rounds end before it
                            this.cj = cj;
                            return k;
                        }
                        // a call that blocks and wakes nobody, replayed: its turn comes after the round's last place
                        told = (cj - c) * m + k;
                        toldPlace = k;
                        toldRound = cj;
                        pend = k;
                        break;
                    }
                    long unit = (cj - c) * m + k;
                    if (unit - told > 1) {
                        long left = skippedBefore(unit);
                        if (left > 0) {
                            tell(unit, left);
                        }
                    }
                    told = unit;
                    toldPlace = k;
                    toldRound = cj;
                    int u = order[k];
                    int f1 = (int) (word >>> 32);
                    sink.access(u, u, cj, f1, MemType.bytes(f1), (f1 & 0xF) == MemType.STORE,
                            segHigh[k] | (word & 0xFFFFFFFFL));
                    clock[u] = cj + 1;
                    segPos[k] = ++p;
                    if (p == segEnd[k]) {
                        // its run is used up: what comes next (a gap, another run) is loaded now, for the next round
                        e.rd[u].skip(p - segStart[k]);
                        segWords[k] = null;
                        load = true;
                        at = cj + 1;
                        continue;
                    }
                    to[listed++] = k;
                    break;
                }
            }
            if (pend >= 0) {
                listed = endTurn(cj, to, listed);
                if (listed < 0) {
                    this.cj = cj;
                    return m - 1; // its next record needs the engine
                }
            }
            act2 = act;
            this.act = to;
            na = listed;
            this.na = na;
            passed += listed + ne + 1;
        }
        this.cj = cj;
        return -1;
    }

    /**
     * Replays the call that place k's thread, at its turn in round cj, has read and holds for the engine, if the
     * call blocks and wakes no thread ({@link ThreadCalls#inRounds}): after telling the skipped accesses before its
     * turn, as the engine would deliver it after the rounds end there. Returns false, having done nothing, otherwise.
     */
    private boolean callHere(int k, long cj) {
        ThreadEngine e = this.e;
        int u = order[k];
        TraceReader r = e.rd[u];
        if (e.heldKind[u] != RecordKind.CALL || e.resume[u] || !e.calls.inRounds(u, r)) {
            return false;
        }
        long unit = (cj - c) * m + k;
        long left = skippedBefore(unit);
        if (left > 0) {
            tell(unit, left);
        }
        e.heldKind[u] = 0;
        e.calls.call(u, r);
        return true;
    }

    /**
     * The turn in round cj of place {@link #pend}, whose call the rounds replayed, after the round's last place. The
     * engine would run the threads after it, then it, then start each round after it: so the rounds' order now
     * starts after it. The skipped accesses up to its turn are told, the places renumbered so that it is the last
     * (the others holes of round cj, which becomes the rounds' first), and it loads what comes after the call: a gap
     * (queued), an access it delivers at cj (then it is in the next round's list {@code to}, of {@code listed}
     * places, unless it loads a gap), another such call (replayed; its turn goes on), or a record for the engine.
     * Returns the next round's places, or -1 when the rounds end at its turn (place m - 1 of round cj).
     */
    private int endTurn(long cj, int[] to, int listed) {
        ThreadEngine e = this.e;
        int m = this.m;
        int s = pend + 1;
        pend = -1;
        long end = (cj - c + 1) * m;
        long left = skippedBefore(end);
        if (left > 0) {
            tell(end, left);
        }
        listed = renumber(s, to, listed);
        c = cj;
        holes = m - 1;
        for (int i = 0; i < m; i++) {
            hole[i] = i < m - 1;
            holesBefore[i] = i;
        }
        holesBefore[m] = m - 1;
        told = m - 2;
        toldPlace = m - 2;
        toldRound = cj;
        int p = m - 1;
        int u = order[p];
        for (;;) {
            next(p);
            long[] w = segWords[p];
            if (w == null) {
                gaps.add(p, cj + e.gapLeft[u]);
                return listed;
            }
            long word = w[segPos[p]];
            if (TraceReader.wordKind(word) != RecordKind.MEMORY) {
                if (w == STOP && callHere(p, cj)) {
                    continue;
                }
                return -1;
            }
            told = m - 1;
            toldPlace = m - 1;
            int f1 = (int) (word >>> 32);
            e.accessSink.access(u, u, cj, f1, MemType.bytes(f1), (f1 & 0xF) == MemType.STORE,
                    segHigh[p] | (word & 0xFFFFFFFFL));
            e.clock[u] = cj + 1;
            if (++segPos[p] == segEnd[p]) {
                e.rd[u].skip(segPos[p] - segStart[p]);
                segWords[p] = null;
                next(p);
                if (segWords[p] == null) {
                    gaps.add(p, cj + 1 + e.gapLeft[u]);
                    return listed;
                }
            }
            to[listed++] = p;
            return listed;
        }
    }

    /**
     * Renumbers the places so that place s comes first ({@code (p - s) mod m}): the per-place arrays, the gap queue
     * and the list {@code to} of {@code listed} places in order (the threads and their cyclic order stay). O(m).
     */
    private int renumber(int s, int[] to, int listed) {
        int m = this.m;
        rotate(order, tmpInts, s, m);
        rotate(segStart, tmpInts, s, m);
        rotate(segPos, tmpInts, s, m);
        rotate(segEnd, tmpInts, s, m);
        rotate(segHigh, tmpLongs, s, m);
        rotate(from, tmpLongs, s, m);
        rotate(segWords, tmpWords, s, m);
        int j = 0;
        while (j < listed && to[j] < s) {
            j++;
        }
        System.arraycopy(to, 0, tmpInts, 0, j);
        for (int i = j; i < listed; i++) {
            to[i - j] = to[i] - s;
        }
        for (int i = 0; i < j; i++) {
            to[listed - j + i] = tmpInts[i] + m - s;
        }
        gaps.renumber(s, m);
        return listed;
    }

    /** Moves elements s to m - 1 of array {@code a} to the front, 0 to s - 1 after them, through {@code tmp}. */
    private static void rotate(Object a, Object tmp, int s, int m) {
        System.arraycopy(a, 0, tmp, 0, s);
        System.arraycopy(a, s, a, 0, m - s);
        System.arraycopy(tmp, 0, a, m - s, s);
    }

    /** Unit of the rounds of the last delivered access (-1: none yet); bytes of gaps run, not told yet. */
    private long told;
    /** The place and round of unit {@link #told} (-1 and c: none yet), so that telling needs no division. */
    private int toldPlace;
    private long toldRound;
    private long bytes;

    /** The skipped accesses between unit {@link #told} and {@code unit}: the units between, less the holes. */
    private long skippedBefore(long unit) {
        long n = unit - told - 1;
        if (holes > 0 && told + 1 < m) {
            n -= holesBefore[(int) Math.min(unit, m)] - holesBefore[(int) (told + 1)];
        }
        return n;
    }

    /**
     * Tells the analyses the {@code left} skipped accesses from the one after unit {@link #told} to the one before
     * {@code unit}, in one {@link Analysis#skipped} (of several threads: thread and clock are the first's), with the
     * bytes of the gaps ended since the last call and, when the rounds end, of the parts of gaps run in them (none
     * of a part the rounds did not run, which a marker that stops all threads may drop).
     */
    private void tell(long unit, long left) {
        long first = told + 1;
        if ((first >= m || holes == 0) && left <= Integer.MAX_VALUE) {
            // no hole among them (the usual case): the first is the place after the last delivered access
            int k = toldPlace + 1;
            long round = toldRound;
            if (k == m) {
                k = 0;
                round++;
            }
            e.accessSink.skipped(order[k], round, (int) left, bytes);
            bytes = 0;
            return;
        }
        tellAcrossHoles(first, left);
    }

    /** {@link #tell} from unit {@code first}, where holes of round c may lie among the skipped accesses. */
    private void tellAcrossHoles(long first, long left) {
        do {
            while (left > 0 && first < m && hole[(int) first]) {
                first++;
            }
            int count = (int) Math.min(left, Integer.MAX_VALUE);
            e.accessSink.skipped(order[(int) (first % m)], c + first / m, count, bytes);
            bytes = 0;
            left -= count;
            for (int n = count; n > 0; first++) {
                if (first >= m) {
                    first += n; // no holes past round c
                    break;
                }
                if (!hole[(int) first]) {
                    n--;
                }
            }
        } while (left > 0);
    }

    /** The next segment of thread order[k], whose current one is used up; {@link #STOP} if it has none. */
    private void next(int k) {
        if (!load(k)) {
            segWords[k] = STOP;
            segPos[k] = 0;
        }
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
            e.newGap(u, r);
            if (e.gapLeft[u] > 0) {
                segWords[k] = null;
                return true;
            }
        }
    }
}
