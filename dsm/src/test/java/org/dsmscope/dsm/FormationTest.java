package org.dsmscope.dsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a group of members forms. The regression behind it: members started at the same moment each found no one
 * through file discovery, made groups of their own and were merged seconds later, after which requests were lost
 * and 2-member runs hung about 1 time in 6.
 */
class FormationTest {
    @TempDir
    Path dir;

    @Test
    void formed_needsEveryRank_andAViewUnchangedForTheSettlingTime() {
        Formation f = new Formation(3, 300);
        assertFalse(f.formed(Set.of(0, 1), 1, 0));
        assertEquals("only 2 of 3 members joined (missing m2)", f.missing(Set.of(0, 1)));
        assertFalse(f.formed(Set.of(0, 1, 5), 2, 10), "a stranger does not replace rank 2");
        assertFalse(f.formed(Set.of(0, 1, 2), 3, 100));
        assertFalse(f.formed(Set.of(0, 1, 2), 3, 399));
        assertTrue(f.formed(Set.of(0, 1, 2), 3, 400));
        assertFalse(f.formed(Set.of(0, 1, 2), 4, 450), "a new view restarts the settling time");
        assertTrue(f.formed(Set.of(0, 1, 2), 4, 750));
        assertFalse(f.formed(Set.of(0, 2), 5, 800));
        assertEquals("only 2 of 3 members joined (missing m1)", f.missing(Set.of(0, 2)));
        assertEquals("the group of 3 members kept changing", f.missing(Set.of(0, 1, 2)));
    }

    @Test
    @Timeout(30)
    void aMemberWaitsForMember0_andSaysSoWhenItNeverComes() {
        DsmConfig c = DsmConfig.of(1, 2);
        c.transport = DsmConfig.Transport.UDP;
        c.discoveryDir = dir;
        c.cluster = "lonely";
        c.timeoutMillis = 300;
        DsmException e = org.junit.jupiter.api.Assertions.assertThrows(DsmException.class, () -> Dsm.start(c));
        assertTrue(e.getMessage().contains("member m1: member m0 did not create group lonely within 300 ms"),
                e.getMessage());
    }

    /**
     * UDP members (as separate JVMs use) started at the same instant, four times: each time a request answered by
     * every member goes through and the group holds every rank, and the group forms by joining member 0 without
     * a merge. Without the ordered formation every round merges (each member finds no one and makes a group of
     * its own); with it, a merge was seen once in a loaded full build (the runtime then resends its idempotent
     * requests, and the round still passed), so one merged round of four is tolerated.
     */
    @Test
    @Timeout(180)
    void membersStartedTogether_formOneGroupWithoutMerging() throws Exception {
        int merged = 0;
        for (int round = 0; round < 4; round++) {
            int n = 3;
            ExecutorService pool = Executors.newFixedThreadPool(n);
            List<Future<Dsm>> fs = new ArrayList<>();
            Path disco = dir.resolve("r" + round);
            java.nio.file.Files.createDirectories(disco);
            for (int r = 0; r < n; r++) {
                DsmConfig c = DsmConfig.of(r, n);
                c.transport = DsmConfig.Transport.UDP;
                c.discoveryDir = disco;
                c.cluster = "together-" + ProcessHandle.current().pid() + "-" + round;
                c.timeoutMillis = 60_000;
                fs.add(pool.submit(() -> Dsm.join(c)));
            }
            List<Dsm> members = new ArrayList<>();
            try {
                for (Future<Dsm> f : fs) {
                    members.add(f.get(120, TimeUnit.SECONDS));
                }
                List<Future<?>> parts = new ArrayList<>();
                for (Dsm d : members) {
                    parts.add(pool.submit(() -> {
                        Eventcount e = d.createEvent();
                        RandomSegment s = d.createRandom(64, Consistency.release());
                        d.needUpdates(s); // a request every other member must answer
                        d.advance(e);
                        d.await(e, n);
                        return null;
                    }));
                }
                for (Future<?> p : parts) {
                    p.get(120, TimeUnit.SECONDS);
                }
                boolean merge = false;
                for (Dsm d : members) {
                    merge |= d.mergeViews() > 0;
                    assertEquals(Set.of(0, 1, 2), d.ranks());
                }
                merged += merge ? 1 : 0;
            } finally {
                for (Dsm d : members) {
                    d.close();
                }
                pool.shutdownNow();
            }
        }
        assertTrue(merged <= 1, merged + " of 4 rounds formed their group through a merge");
    }
}
