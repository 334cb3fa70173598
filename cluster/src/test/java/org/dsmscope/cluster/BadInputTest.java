package org.dsmscope.cluster;

import static org.dsmscope.cluster.ClusterFixture.args;
import static org.dsmscope.cluster.ClusterFixture.cluster;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input on a cluster: one line {@code dsmscope: …} naming the file (and the position, for a bad record), exit
 * status 2, and no report presented as complete.
 */
class BadInputTest {
    @TempDir
    Path dir;

    /** The one error line of a run (the UI link line aside). */
    private static String errorLine(ClusterFixture.Run r) {
        List<String> lines = r.err().lines().filter(l -> l.startsWith("dsmscope: ") && !l.contains("Spark UI"))
                .toList();
        assertEquals(1, lines.size(), r.err());
        return lines.get(0);
    }

    @Test
    void aMissingTraceFile_isNamedWithStatus2() throws Exception {
        ClusterFixture.forkJoin(dir, 2_000);
        Files.delete(dir.resolve("fj.4.3"));
        ClusterFixture.Run r = cluster(args(List.of("ciat", "--master", "local[2]"), dir.resolve("fj.4").toString()));
        assertEquals(2, r.status(), r.err());
        assertTrue(errorLine(r).contains(dir.resolve("fj.4.3").toString()), r.err());
        assertFalse(Files.exists(dir.resolve("fj.4.ciat_report")));
    }

    @Test
    void aCorruptRecord_isNamedWithItsFileAndOffsetAndStatus2() throws Exception {
        ClusterFixture.forkJoin(dir, 5_000);
        Path f = dir.resolve("fj.4.2");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(raf.length() / 2 & ~7L);
            raf.write(new byte[] {(byte) 0xEE, (byte) 0xEE, (byte) 0xEE, (byte) 0xEE, (byte) 0xEE, (byte) 0xEE,
                (byte) 0xEE, (byte) 0xEE});
        }
        ClusterFixture.Run r = cluster(args(List.of("ciat", "--master", "local[2]"), dir.resolve("fj.4").toString()));
        assertEquals(2, r.status(), r.err());
        String line = errorLine(r);
        assertTrue(line.contains(f.toString()) && line.contains("byte offset"), line);
        assertFalse(Files.exists(dir.resolve("fj.4.ciat_report")));
    }

    @Test
    void aCorruptRecordOnlyTheMapTasksSee_isNamedWithItsFileAndOffsetAndStatus2() throws Exception {
        ClusterFixture.forkJoin(dir, 5_000);
        // the executors read the set under another folder (test hook), where one file has a corrupt record: the
        // driver's prescan passes, the map task routing that file meets it
        Path elsewhere = dir.resolve("elsewhere");
        Path copy = ClusterFixture.copy(dir, Path.of(elsewhere + dir.toString()));
        Path f = copy.resolve("fj.4.1");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(raf.length() / 2 & ~7L);
            raf.write(new byte[] {(byte) 0xEE, (byte) 0xEE, (byte) 0xEE, (byte) 0xEE, (byte) 0xEE, (byte) 0xEE,
                (byte) 0xEE, (byte) 0xEE});
        }
        ClusterFixture.Run r = cluster(args(List.of("ciat", "--master", "local[2]", "--conf",
                SparkRun.EXECUTOR_ROOT + "=" + elsewhere), dir.resolve("fj.4").toString()));
        assertEquals(2, r.status(), r.err());
        String line = errorLine(r);
        assertTrue(line.contains(f.toString()) && line.contains("byte offset") && line.contains("routing its trace"
                + " file on executor") && line.contains("no results written"), line);
        assertFalse(Files.exists(dir.resolve("fj.4.ciat_report")));
    }

    @Test
    void aTraceSetTheExecutorsCannotRead_namesTheFileTheExecutorAndStatus2() throws Exception {
        ClusterFixture.forkJoin(dir, 2_000);
        Path elsewhere = dir.resolve("elsewhere");
        ClusterFixture.Run r = cluster(args(List.of("ciat", "--master", "local[2]", "--conf",
                SparkRun.EXECUTOR_ROOT + "=" + elsewhere), dir.resolve("fj.4").toString()));
        assertEquals(2, r.status(), r.err());
        String line = errorLine(r);
        assertTrue(line.contains(elsewhere + dir.resolve("fj.4.0").toString()) && line.contains("executor")
                && line.contains("no results written"), line);
        assertFalse(Files.exists(dir.resolve("fj.4.ciat_report")));
    }

    @Test
    void aConfigurationWithTrafficTraces_isRefusedBeforeSparkStarts() throws Exception {
        ClusterFixture.forkJoin(dir, 2_000);
        Path cfg = dir.resolve("t.cfg");
        Files.writeString(cfg, ClusterFixture.CONFIG + "general_trace = 1\n");
        ClusterFixture.Run r = cluster("cdat", "--master", "local[2]", dir.resolve("fj.4").toString(),
                cfg.toString());
        assertEquals(2, r.status(), r.err());
        assertTrue(errorLine(r).contains("traffic traces"), r.err());
    }
}
