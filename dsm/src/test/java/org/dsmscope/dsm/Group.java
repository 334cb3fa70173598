package org.dsmscope.dsm;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.dsmscope.monitor.Router;
import org.dsmscope.monitor.event.MemorySink;

/** Several members in one JVM on JGroups' shared-loopback transport, each run on its own thread (tests). */
final class Group implements AutoCloseable {
    private static final AtomicInteger CLUSTERS = new AtomicInteger();
    final Router router = new Router(50);
    final MemorySink sink = new MemorySink();
    final List<Dsm> members = new ArrayList<>();
    private final ExecutorService pool;

    Group(int n, Consumer<DsmConfig> tune) throws Exception {
        router.addSink(sink);
        String cluster = "t" + ProcessHandle.current().pid() + "-" + CLUSTERS.incrementAndGet();
        pool = Executors.newFixedThreadPool(n);
        for (int r = 0; r < n; r++) {
            DsmConfig c = DsmConfig.of(r, n);
            c.cluster = cluster;
            c.router = router;
            c.timeoutMillis = 30_000; // forming a group under a loaded CI machine can take seconds
            if (tune != null) {
                tune.accept(c);
            }
            members.add(Dsm.start(c));
        }
        for (Dsm d : members) {
            d.awaitMembers();
        }
    }

    Group(int n) throws Exception {
        this(n, null);
    }

    Dsm m(int r) {
        return members.get(r);
    }

    /** A member's part of the test. */
    interface Part {
        void run(Dsm d) throws Exception;
    }

    /** Runs {@code part} on every member concurrently; rethrows the first failure; never waits over 30 s. */
    void spmd(Part part) throws Exception {
        List<Future<?>> fs = new ArrayList<>();
        for (Dsm d : members) {
            fs.add(pool.submit(() -> {
                part.run(d);
                return null;
            }));
        }
        for (Future<?> f : fs) {
            try {
                f.get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof Exception) {
                    throw (Exception) e.getCause();
                }
                throw e;
            }
        }
    }

    @Override
    public void close() {
        for (int i = members.size() - 1; i >= 0; i--) {
            members.get(i).close();
        }
        router.close();
        pool.shutdownNow();
    }
}
