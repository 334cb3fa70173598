package org.dsmscope.cluster;

import static org.dsmscope.cluster.ClusterFixture.args;
import static org.dsmscope.cluster.ClusterFixture.cluster;
import static org.dsmscope.cluster.ClusterFixture.ok;
import static org.dsmscope.cluster.ClusterFixture.sameFiles;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster ciat|cdat --master local[2]} on trace files the driver's prescan cuts into small chunks
 * ({@code -Ddsmscope.chunkBytes}, replay/README.md "Partitioned replay"): a map task per chunk, a partition's blocks
 * of a thread read in chunk order, and the serial run's outputs byte for byte.
 */
class ChunkedClusterTest {
    @TempDir
    Path tmp;
    private String before;

    @BeforeEach
    void smallChunks() {
        before = System.getProperty("dsmscope.chunkBytes");
        System.setProperty("dsmscope.chunkBytes", Integer.toString(48 << 10));
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty("dsmscope.chunkBytes");
        } else {
            System.setProperty("dsmscope.chunkBytes", before);
        }
    }

    @Test
    void ciatOfChunkedFiles_mapsEachChunkOnce_andWritesTheSerialRunsOutputs() throws Exception {
        ClusterFixture.Run r = ClusterFixture.localCiatMatchesSerial(tmp).run();
        Matcher m = Pattern.compile("4 trace files read once by (\\d+) map tasks").matcher(r.err());
        assertTrue(m.find(), r.err());
        // 30,000 accesses a thread, 8 bytes each: at least 5 chunks of 48 KiB a file
        assertTrue(Integer.parseInt(m.group(1)) >= 4 * 5, r.err());
    }

    @Test
    void cdatOfChunkedFiles_placesPagesByFirstTouchAsTheSerialRun() throws Exception {
        Path a = tmp.resolve("serial");
        Files.createDirectories(a);
        TraceSet set = ClusterFixture.forkJoin(a, 20_000);
        Path cfg = tmp.resolve("numa.cfg");
        Files.writeString(cfg, ClusterFixture.CONFIG);
        Path b = ClusterFixture.copy(a, tmp.resolve("cluster"));
        ClusterFixture.serialCdat(set, new ReplayOptions(), cfg, a.resolve("r.json"));
        ClusterFixture.Run r = cluster(args(List.of("cdat", "--master", "local[2]", "--partitions", "2", "--json",
                b.resolve("r.json").toString()), b.resolve("fj.4").toString(), cfg.toString()));
        ok(r);
        sameFiles(a, b, "fj.4.cdat_report", "r.json");
        Matcher m = Pattern.compile("4 trace files read once by (\\d+) map tasks").matcher(r.err());
        assertTrue(m.find() && Integer.parseInt(m.group(1)) > 4, r.err());
    }
}
