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
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cluster ciat|cdat --master local[2]}: the serial run's outputs, byte for byte. */
class LocalClusterTest {
    @TempDir
    Path tmp;

    @Test
    void ciatOnLocal2_writesTheSerialRunsReportMemoryEventsAndJson() throws Exception {
        ClusterFixture.LocalCiat run = ClusterFixture.localCiatMatchesSerial(tmp);
        TraceSet set = run.set();
        ClusterFixture.Run r = run.run();
        assertTrue(r.err().contains("Spark UI"), r.err());
        // the shuffle ran: every access read once, each partition given only its share
        Matcher m = Pattern.compile("records shuffled by address partition: 4 trace files read once by 4 map tasks,"
                + " (\\d+) data accesses routed (\\d+) times to 3 partitions").matcher(r.err());
        assertTrue(m.find(), r.err());
        Replay serial = new Replay(set, null, new ReplayOptions());
        serial.run();
        long read = Long.parseLong(m.group(1));
        long routed = Long.parseLong(m.group(2));
        assertTrue(read > 0 && read < serial.records(), "accesses read " + read + ", records " + serial.records());
        assertTrue(routed >= read && routed < 3 * read, "routed " + routed + " of " + read);
    }

    @Test
    void ciatOfAProcessTraceSetWithI_readThroughHadoopCopies_writesTheSerialRunsOutputs() throws Exception {
        Path a = tmp.resolve("serial");
        Files.createDirectories(a);
        TraceSet set = ClusterFixture.processes(a);
        Path b = ClusterFixture.copy(a, tmp.resolve("cluster"));
        ReplayOptions ro = new ReplayOptions();
        ro.interleave = 2;
        ClusterFixture.serialCiat(set, ro, a.resolve("r.json"));
        ClusterFixture.Run r = cluster(args(List.of("ciat", "--master", "local[2]", "-i", "2", "--read", "copy",
                "-ciat_events", "--json", b.resolve("r.json").toString()), b.resolve("ps.5").toUri().toString()));
        ok(r);
        sameFiles(a, b, "ps.5.ciat_report", "ps.5.memory", "ps.5.ciat_events", "r.json");
        assertTrue(r.err().contains("records shuffled by address partition: 5 trace files read once by 5 map tasks"),
                r.err());
    }

    @Test
    void cdatOnLocal2_writesTheSerialRunsReportAndJson() throws Exception {
        Path a = tmp.resolve("serial");
        Files.createDirectories(a);
        TraceSet set = ClusterFixture.forkJoin(a, 20_000);
        Path cfg = tmp.resolve("numa.cfg");
        Files.writeString(cfg, ClusterFixture.CONFIG);
        Path b = ClusterFixture.copy(a, tmp.resolve("cluster"));
        ClusterFixture.serialCdat(set, new ReplayOptions(), cfg, a.resolve("r.json"));
        ClusterFixture.Run r = cluster(args(List.of("cdat", "--master", "local[2]", "--json",
                b.resolve("r.json").toString()), b.resolve("fj.4").toString(), cfg.toString()));
        ok(r);
        sameFiles(a, b, "fj.4.cdat_report", "r.json");
        assertTrue(r.err().contains("records shuffled by address partition: 4 trace files read once by 4 map tasks"),
                r.err());
    }
}
