package org.dsmscope.cluster;

import static org.dsmscope.cluster.ClusterFixture.args;
import static org.dsmscope.cluster.ClusterFixture.cluster;
import static org.dsmscope.cluster.ClusterFixture.ok;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.dsmscope.cli.Main;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.SmaitFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code cluster ciat|cdat --skip-bad-records} on damaged trace sets (replay/README.md "Partitioned replay",
 * skipping bad records): the driver's prescan lists each file's skipped records once, the map tasks' splitters skip
 * the same records (also a chunk at a time), partition 0's task returns the problems its engine continued past, and
 * the report, memory usage file, event trace and JSON are {@code dsmscope ciat|cdat --skip-bad-records}'s byte for
 * byte, the problem lines on standard error and the line on standard output too.
 */
class SkipBadRecordsTest {
    @TempDir
    Path dir;
    private String chunkBytes;

    @AfterEach
    void restoreChunks() {
        if (chunkBytes == null) {
            System.clearProperty("dsmscope.chunkBytes");
        } else {
            System.setProperty("dsmscope.chunkBytes", chunkBytes);
        }
    }

    /** Cuts the trace files into chunks of {@code bytes} for this test (restored after it). */
    private void chunks(int bytes) {
        chunkBytes = System.getProperty("dsmscope.chunkBytes");
        System.setProperty("dsmscope.chunkBytes", Integer.toString(bytes));
    }

    /**
     * The 4-thread fork-join set of {@code instructions} instructions a thread in {@link #dir}, damaged: thread 1's
     * first end of a critical section lost (its first part replaced by an unknown record tag: the reader skips it and
     * the five parts after it, and the replay's engine finds the thread ending inside a critical section), thread 2's
     * trace with an unknown record tag at 3/8 and an unknown call type at 5/8 of its words, thread 3's cut short.
     */
    private String damaged(long instructions) throws IOException {
        String set = ClusterFixture.forkJoin(dir, instructions).base();
        try (FileChannel ch = FileChannel.open(dir.resolve("fj.4.1"), StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            ByteBuffer all = ByteBuffer.allocate((int) ch.size());
            ch.read(all, 0);
            ByteOrder order = all.getInt(0) == SmaitFormat.HEADER_MAGIC ? ByteOrder.BIG_ENDIAN
                    : ByteOrder.LITTLE_ENDIAN;
            all.order(order);
            long at = -1;
            for (int i = 8; i + 8 <= all.capacity(); i += 8) {
                if (all.getInt(i) == SmaitFormat.callTag(CallType.END_CRITICAL, 0)) {
                    at = i;
                    break;
                }
            }
            assertTrue(at > 0, "thread 1 has a critical section");
            overwrite(ch, at, 0x00001FF0_00000000L, order);
        }
        try (FileChannel ch = FileChannel.open(dir.resolve("fj.4.2"), StandardOpenOption.WRITE)) {
            long words = ch.size() / 8;
            ByteOrder order = orderOf(dir.resolve("fj.4.2"));
            overwrite(ch, 8 * (words * 3 / 8), 0x00001FF0_00000000L, order);
            overwrite(ch, 8 * (words * 5 / 8), 0x20000000_12345678L, order);
        }
        try (FileChannel ch = FileChannel.open(dir.resolve("fj.4.3"), StandardOpenOption.WRITE)) {
            ch.truncate(8 * (ch.size() / 8 * 2 / 3));
        }
        return set;
    }

    private static ByteOrder orderOf(Path f) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(4);
        try (FileChannel ch = FileChannel.open(f)) {
            ch.read(head, 0);
        }
        return head.getInt(0) == SmaitFormat.HEADER_MAGIC ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    private static void overwrite(FileChannel ch, long at, long word, ByteOrder order) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8).order(order);
        b.putInt((int) (word >>> 32)).putInt((int) word).flip();
        ch.write(b, at);
    }

    /** What {@code dsmscope ARGS} (cli, in this JVM) printed and returned. */
    private static ClusterFixture.Run serial(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int status = cl.execute(args.toArray(new String[0]));
        return new ClusterFixture.Run(status, out.toString(), err.toString());
    }

    /** Renames the outputs {@code names} of {@link #dir} to NAME.serial, so that the cluster run writes its own. */
    private void keepSerial(String... names) throws IOException {
        for (String n : names) {
            Files.move(dir.resolve(n), dir.resolve(n + ".serial"));
        }
    }

    private void sameAsSerial(String... names) throws IOException {
        for (String n : names) {
            assertArrayEquals(Files.readAllBytes(dir.resolve(n + ".serial")), Files.readAllBytes(dir.resolve(n)), n);
        }
    }

    /** The lines of {@code text} that begin with {@code prefix}. */
    private static List<String> lines(String text, String prefix) {
        return text.lines().filter(l -> l.startsWith(prefix)).collect(Collectors.toList());
    }

    /** The serial and cluster runs of CIAT with {@code --skip-bad-records} in {@code partitions}: the same output. */
    private ClusterFixture.Run ciatSameAsSerial(String set, int partitions) throws IOException {
        String json = dir.resolve("r.json").toString();
        ClusterFixture.Run s = serial(List.of("ciat", "--skip-bad-records", "-ciat_events", "--json", json, set));
        ok(s);
        keepSerial("fj.4.ciat_report", "fj.4.memory", "fj.4.ciat_events", "r.json");
        ClusterFixture.Run r = cluster(args(List.of("ciat", "--master", "local[2]", "--partitions",
                Integer.toString(partitions), "--skip-bad-records", "-ciat_events", "--json", json), set));
        ok(r);
        sameAsSerial("fj.4.ciat_report", "fj.4.memory", "fj.4.ciat_events", "r.json");
        List<String> warnings = lines(s.err(), "dsmscope: warning: ");
        assertEquals(warnings, lines(r.err(), "dsmscope: warning: "), r.err());
        assertEquals(lines(s.out(), "ciat: continued past"), lines(r.out(), "ciat: continued past"), r.out());
        // the prescan's skipped records (each file once, with the offset of the first) and the engine's problem
        String report = Files.readString(dir.resolve("fj.4.ciat_report"));
        for (int t = 1; t <= 3; t++) {
            assertTrue(report.contains("fj.4." + t + ": skipped "), report);
        }
        assertTrue(warnings.stream().anyMatch(w -> !w.contains(": skipped ") && !w.contains(" more")), s.err());
        assertTrue(r.err().contains("records shuffled by address partition"), r.err());
        return r;
    }

    @Test
    void ciat_skippingBadRecords_onLocal2_writesTheSerialRunsOutputsAndProblemLines() throws Exception {
        ciatSameAsSerial(damaged(20_000), 3);
    }

    @Test
    void ciat_skippingBadRecordsInChunkedFiles_eachChunkSkipsWhatTheWholeFilesReaderSkips() throws Exception {
        chunks(24 << 10);
        ClusterFixture.Run r = ciatSameAsSerial(damaged(30_000), 2);
        Matcher m = Pattern.compile("4 trace files read once by (\\d+) map tasks").matcher(r.err());
        assertTrue(m.find() && Integer.parseInt(m.group(1)) >= 4 * 5, r.err());
    }

    @Test
    void cdat_skippingBadRecordsInChunkedFiles_writesTheSerialRunsReportAndJson() throws Exception {
        chunks(24 << 10);
        String set = damaged(20_000);
        Path cfg = Files.writeString(dir.resolve("numa.cfg"), ClusterFixture.CONFIG);
        String json = dir.resolve("r.json").toString();
        List<String> common = new ArrayList<>(List.of("--skip-bad-records", "--json", json));
        List<String> one = new ArrayList<>(List.of("cdat"));
        one.addAll(common);
        one.addAll(List.of(set, cfg.toString()));
        ClusterFixture.Run s = serial(one);
        ok(s);
        keepSerial("fj.4.cdat_report", "r.json");
        List<String> many = new ArrayList<>(List.of("cdat", "--master", "local[2]", "--partitions", "2"));
        many.addAll(common);
        ClusterFixture.Run r = cluster(args(many, set, cfg.toString()));
        ok(r);
        sameAsSerial("fj.4.cdat_report", "r.json");
        List<String> said = lines(s.out(), "cdat: continued past");
        assertEquals(1, said.size(), s.out());
        assertEquals(said, lines(r.out(), "cdat: continued past"), r.out());
        assertTrue(r.err().contains("records shuffled by address partition"), r.err());
    }
}
