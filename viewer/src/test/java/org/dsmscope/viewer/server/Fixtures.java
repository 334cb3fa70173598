package org.dsmscope.viewer.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.dsmscope.dsm.Dsm;
import org.dsmscope.dsm.DsmConfig;
import org.dsmscope.examples.dsm.MatMul;
import org.dsmscope.monitor.Router;
import org.dsmscope.monitor.record.Recorder;

/** Recordings made by the DSM runtime itself: members in this JVM on JGroups' shared loopback (tests). */
final class Fixtures {
    private static final AtomicInteger CLUSTERS = new AtomicInteger();

    private Fixtures() {
    }

    /** Records {@code MatMul n} on {@code members} members with packet loss {@code loss} into {@code file}. */
    static Path matmul(Path file, int members, int n, double loss) throws Exception {
        Router router = new Router(50);
        Recorder rec = new Recorder(file);
        router.addSink(rec);
        String cluster = "view" + ProcessHandle.current().pid() + "-" + CLUSTERS.incrementAndGet();
        List<Dsm> ms = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(members);
        try {
            for (int r = 0; r < members; r++) {
                DsmConfig c = DsmConfig.of(r, members);
                c.cluster = cluster;
                c.router = router;
                c.loss = loss;
                c.timeoutMillis = 30_000;
                ms.add(Dsm.start(c));
            }
            for (Dsm d : ms) {
                d.awaitMembers();
            }
            List<Future<?>> fs = new ArrayList<>();
            for (Dsm d : ms) {
                fs.add(pool.submit(() -> {
                    new MatMul().run(d, new String[] {Integer.toString(n)});
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            for (int i = ms.size() - 1; i >= 0; i--) {
                ms.get(i).close();
            }
            router.close();
            pool.shutdownNow();
            rec.close();
        }
        return file;
    }
}
