package org.dsmscope.replay;

/**
 * Routed gaps of a thread whose instruction stream is known (seed 000 §3, SPEC §4 "Partitioning"; module README
 * "Threads with an instruction stream"): a routed partition gets every branch and procedure record of such a thread
 * and gaps for the data accesses it does not need, so its engine keeps the program counter as the serial run does,
 * and runs each skipped access as its record would run: the fetches the record makes ({@link
 * ThreadEngine#fetchAccess}: with exact reconstruction the instructions up to the method's next memory-access
 * instruction, then that one; with the seed's, the word at the counter), then the access, skipped, at that
 * instruction's clock. A piece of a gap ends after the access whose clock reaches the bound (the first one even at
 * the bound), exactly where the serial run gives way after that record, so the partition makes the serial run's
 * scheduling decisions and tells the fetches, the skipped accesses and their clocks at the serial places, each
 * piece with its bytes ({@link ThreadEngine#gapPiece}).
 */
final class StreamGaps {
    private StreamGaps() {
    }

    /**
     * Runs a piece of engine {@code e}'s thread t's gap (not stopped, its counter valid) below {@code bound}; false if
     * part of the gap is left (t must give way).
     */
    static boolean gap(ThreadEngine e, int t, long bound) {
        long left = e.gapLeft[t];
        long c = e.clock[t];
        Analysis[] an = e.an;
        if (e.code == null) {
            // the seed's reconstruction: one word and one clock per access, told as one run
            int take = (int) Math.min(left, Math.max(1, Math.min(bound - c, Integer.MAX_VALUE)));
            long bytes = e.gapPiece(t, left, take);
            long p = e.pc[t];
            for (Analysis a : an) {
                a.skippedFetching(t, t, c, p, take, bytes);
            }
            e.pc[t] = p + (long) take * InstructionStream.WORD;
            e.lastInstr[t] = c + take - 1;
            e.clock[t] = c + take;
            e.cur.busy[t] += take;
            e.replayed += take;
            e.gapLeft[t] = left - take;
            return left == take;
        }
        do {
            c = e.fetchAccess(t, c);
            long bytes = e.gapPiece(t, left, 1);
            for (Analysis a : an) {
                a.skipped(t, c, 1, bytes);
            }
            e.lastInstr[t] = c;
            e.clock[t] = ++c;
            e.cur.busy[t]++;
            e.replayed++;
            left--;
        } while (left > 0 && c < bound);
        e.gapLeft[t] = left;
        return left == 0;
    }

    /**
     * One access of engine {@code e}'s thread u's gap in a lockstep round ({@link LockstepRounds}, with the seed's
     * reconstruction: one clock per access): the word at its counter fetched if the counter is valid, then skipped.
     */
    static void round(ThreadEngine e, int u) {
        if (!e.announced) {
            e.announce();
        }
        long c = e.clock[u];
        long bytes = e.gapPiece(u, e.gapLeft[u], 1);
        if (e.pcValid[u]) {
            long p = e.pc[u];
            for (Analysis a : e.an) {
                a.skippedFetching(u, u, c, p, 1, bytes);
            }
            e.pc[u] = p + InstructionStream.WORD;
        } else {
            for (Analysis a : e.an) {
                a.skipped(u, c, 1, bytes);
            }
        }
        e.lastInstr[u] = c;
        e.clock[u] = c + 1;
        e.cur.busy[u]++;
        e.gapLeft[u]--;
    }
}
