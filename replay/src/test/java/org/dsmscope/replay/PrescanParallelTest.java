package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.replay.gen.ProcessGen;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The prescan on several threads (partitioned runs) finds exactly what it finds on one. */
class PrescanParallelTest {
    @TempDir
    Path dir;

    /** Everything a prescan leaves for the replay, as text. */
    private static String summary(Prescan p, Problems problems) {
        List<Long> vars = new ArrayList<>();
        p.syncVars.forEachKey(vars::add);
        vars.sort(null);
        StringBuilder b = new StringBuilder();
        b.append("vars ").append(vars).append(" min ").append(p.syncMin).append(" max ").append(p.syncMax)
                .append(" t0 ").append(p.t0).append(" fetch ").append(Arrays.toString(p.hasFetch))
                .append(" calls ").append(Arrays.toString(p.usableCalls))
                .append(" records ").append(Arrays.toString(p.records));
        for (Skeleton sk : p.skeletons) {
            if (sk != null) {
                b.append("\nskeleton ").append(sk.instructions).append(' ').append(sk.firstTime).append(' ')
                        .append(sk.lastTime).append(' ').append(sk.bounds).append(' ')
                        .append(Arrays.toString(Arrays.copyOf(sk.boundAt, sk.bounds)))
                        .append(Arrays.toString(Arrays.copyOf(sk.boundStart, sk.bounds)))
                        .append(Arrays.toString(Arrays.copyOf(sk.boundEnd, sk.bounds))).append(' ').append(sk.ios)
                        .append(Arrays.toString(Arrays.copyOf(sk.ioAt, sk.ios)))
                        .append(Arrays.toString(Arrays.copyOf(sk.ioBytes, sk.ios)));
            }
        }
        b.append("\nproblems ").append(problems.count()).append(' ').append(problems.list());
        if (p.profile != null) {
            for (int t = 0; t < p.hasFetch.length; t++) {
                b.append(' ').append(p.profile.threadAccesses(t));
            }
            for (int s = 0; s < WorkProfile.SLOTS; s++) {
                b.append(p.profile.slotAccesses(s) == 0 ? "" : " s" + s + "=" + p.profile.slotAccesses(s));
            }
            b.append(" other ").append(p.profile.otherRecords());
            List<String> priv = new ArrayList<>();
            p.profile.forEachPrivatePage((page, t) -> priv.add(page + ":" + t));
            priv.sort(null);
            b.append(" private ").append(priv);
            for (int t = 0; t < p.hasFetch.length; t++) {
                b.append(' ').append(p.profile.privateAccesses(t));
            }
            for (int s = 0; s < WorkProfile.SLOTS; s++) {
                long v = p.profile.sharedSlotAccesses(s);
                b.append(v == 0 ? "" : " shared" + s + "=" + v);
            }
        }
        return b.toString();
    }

    private static String prescan(TraceSet set, ReplayOptions o, boolean skeleton, int workers) {
        Problems problems = new Problems();
        Prescan p = new Prescan(set.size(), o, problems);
        p.countWork();
        p.run(set, null, skeleton, workers);
        return summary(p, problems);
    }

    @Test
    void threadTraces_sameFindingsOnOneAndOnThreeThreads() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 7;
        p.instructions = 8000;
        p.lockRate = 0.02;
        TraceSet set = ForkJoinGen.write(dir, "fj", p);
        String one = prescan(set, new ReplayOptions(), false, 1);
        assertEquals(one, prescan(set, new ReplayOptions(), false, 3));
        assertEquals(one, prescan(set, new ReplayOptions(), false, 16));
        assertTrue(one.startsWith("vars [") && !one.startsWith("vars []"), one);
    }

    @Test
    void processTraces_sameSkeletonsOnOneAndOnTwoThreads() {
        ProcessGen.Params p = new ProcessGen.Params();
        p.processes = 6;
        p.slices = 15;
        TraceSet set = ProcessGen.write(dir, "tpc", p);
        String one = prescan(set, new ReplayOptions(), true, 1);
        assertTrue(one.contains("skeleton"));
        assertEquals(one, prescan(set, new ReplayOptions(), true, 2));
    }

    /** Bad records in two traces: the same problems in trace order, or the same first error. */
    @Test
    void badTraces_sameProblemsInOrder_orTheFirstTracesError() throws Exception {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 5;
        p.instructions = 3000;
        TraceSet set = ForkJoinGen.write(dir, "bad", p);
        for (int t : new int[] {1, 3}) {
            Files.write(set.files().get(t), new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
        }
        ReplayOptions skip = new ReplayOptions();
        skip.skipBadRecords = true;
        String one = prescan(set, skip, false, 1);
        assertTrue(one.contains("problems 2"), one);
        assertEquals(one, prescan(set, skip, false, 2));
        assertEquals(one, prescan(set, skip, false, 5));
        String first = assertThrows(BadInputException.class, () -> prescan(set, new ReplayOptions(), false, 1))
                .getMessage();
        assertTrue(first.contains("bad.5.1:"), first);
        for (int workers : new int[] {2, 3, 5}) {
            assertEquals(first, assertThrows(BadInputException.class,
                    () -> prescan(set, new ReplayOptions(), false, workers)).getMessage());
        }
    }
}
