package org.dsmscope.examples.dsm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.dsmscope.dsm.Dsm;
import org.dsmscope.dsm.DsmApp;
import org.dsmscope.dsm.DsmConfig;
import org.dsmscope.monitor.Router;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The three DSM examples run with several members in one JVM and check their own results. */
@Timeout(60)
class DsmExamplesTest {
    private static int clusters;

    @org.junit.jupiter.api.BeforeAll
    static void quietJGroups() {
        java.util.logging.Logger.getLogger("org.jgroups").setLevel(java.util.logging.Level.WARNING);
    }

    static void runAll(DsmApp app, int members, String... args) throws Exception {
        String cluster = "ex" + ProcessHandle.current().pid() + "-" + (++clusters);
        List<Dsm> ds = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(members);
        try (Router router = new Router()) {
            for (int r = 0; r < members; r++) {
                DsmConfig c = DsmConfig.of(r, members);
                c.cluster = cluster;
                c.router = router;
                c.timeoutMillis = 15_000;
                ds.add(Dsm.start(c));
            }
            List<Future<?>> fs = new ArrayList<>();
            for (Dsm d : ds) {
                d.awaitMembers();
                fs.add(pool.submit(() -> {
                    app.run(d, args);
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get(45, TimeUnit.SECONDS);
            }
        } finally {
            for (int i = ds.size() - 1; i >= 0; i--) {
                ds.get(i).close();
            }
            pool.shutdownNow();
        }
    }

    @Test
    void sorMatchesTheSequentialRun() throws Exception {
        runAll(new Sor(), 3, "24", "10");
    }

    @Test
    void sorSolveReportsZeroError() throws Exception {
        double[][] ref = Sor.sequential(8, 3, 0.8);
        assertEquals(1.0, ref[0][3]);
    }

    @Test
    void matrixMultiplyChecksItsProduct() throws Exception {
        runAll(new MatMul(), 3, "18");
    }

    @Test
    void workQueueDoesEveryTaskOnce() throws Exception {
        runAll(new WorkQueue(), 3, "40");
    }
}
