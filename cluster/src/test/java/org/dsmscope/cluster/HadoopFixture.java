package org.dsmscope.cluster;

import static org.dsmscope.cluster.ClusterFixture.args;
import static org.dsmscope.cluster.ClusterFixture.cluster;
import static org.dsmscope.cluster.ClusterFixture.ok;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;

/**
 * Trace sets on a Hadoop file system (HDFS, S3) analysed by {@code dsmscope cluster} and compared with the serial
 * run of the same set on a local disk, for {@link HdfsClusterTest} and {@link S3ClusterTest}. A set read through
 * Hadoop has its outputs written in the current folder under the set's name (cluster/README.md "Outputs"): this
 * module's tests run in {@code target/test-cwd}, and these checks delete them again.
 */
final class HadoopFixture {
    private HadoopFixture() {
    }

    /** The outputs of a CIAT run with {@code -ciat_events} that the driver writes under the set's name. */
    private static final String[] CIAT_OUTPUTS = {"ciat_report", "memory", "ciat_events"};

    /** Puts the files of a local folder into a folder of the file system under test. */
    interface Upload {
        /** Puts every file of folder {@code local} into the folder named by URI {@code folder}. */
        void put(Path local, String folder) throws IOException;
    }

    /** Copies every file of folder {@code local} into folder {@code uri} of a Hadoop file system. */
    static void upload(Path local, String uri, Configuration conf) throws IOException {
        org.apache.hadoop.fs.Path to = new org.apache.hadoop.fs.Path(uri);
        FileSystem fs = to.getFileSystem(conf);
        fs.mkdirs(to);
        try (var files = Files.list(local)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(f.toUri()),
                        new org.apache.hadoop.fs.Path(to, f.getFileName().toString()));
            }
        }
    }

    /**
     * Generates the 4-thread fork-join set in {@code tmp/serial}, analyses it serially there ({@code -ciat_events},
     * JSON), puts it into {@code folder} (a Hadoop URI) with {@code upload} and runs {@code cluster ciat --master
     * local[2] --partitions 3} on {@code folder/fj.4} with {@code conf} (Spark settings, {@code --conf K=V} each);
     * asserts that the run succeeded, went through the shuffle and wrote the serial run's report, memory usage file,
     * event trace and JSON.
     */
    static void ciatMatchesSerial(Path tmp, String folder, Upload upload, List<String> conf) throws IOException {
        Path serial = Files.createDirectories(tmp.resolve("serial"));
        TraceSet set = ClusterFixture.forkJoin(serial, 30_000);
        upload.put(ClusterFixture.copy(serial, tmp.resolve("upload")), folder);
        ClusterFixture.serialCiat(set, new ReplayOptions(), serial.resolve("r.json"));
        Path json = tmp.resolve("cluster.json");
        List<String> head = new ArrayList<>(List.of("ciat", "--master", "local[2]", "--partitions", "3",
                "-ciat_events", "--json", json.toString()));
        head.addAll(conf);
        ClusterFixture.Run r = cluster(args(head, folder + "/fj.4"));
        try {
            shuffled(r);
            for (String o : CIAT_OUTPUTS) {
                assertArrayEquals(Files.readAllBytes(serial.resolve("fj.4." + o)),
                        Files.readAllBytes(here("fj.4." + o)), o);
            }
            assertArrayEquals(Files.readAllBytes(serial.resolve("r.json")), Files.readAllBytes(json), "JSON");
        } finally {
            deleteOutputs("fj.4");
        }
    }

    /**
     * Generates the fork-join set in {@code tmp/serial}, runs CDAT with {@link ClusterFixture#CONFIG} serially there,
     * puts the set into {@code folder} with {@code upload} and runs {@code cluster cdat --master local[2]} on {@code
     * folder/fj.4}; asserts that it went through the shuffle and wrote the serial run's report and JSON.
     */
    static void cdatMatchesSerial(Path tmp, String folder, Upload upload, List<String> conf) throws IOException {
        Path serial = Files.createDirectories(tmp.resolve("serial-cdat"));
        TraceSet set = ClusterFixture.forkJoin(serial, 20_000);
        Path cfg = tmp.resolve("numa.cfg");
        Files.writeString(cfg, ClusterFixture.CONFIG);
        upload.put(ClusterFixture.copy(serial, tmp.resolve("upload-cdat")), folder);
        ClusterFixture.serialCdat(set, new ReplayOptions(), cfg, serial.resolve("r.json"));
        Path json = tmp.resolve("cluster-cdat.json");
        List<String> head = new ArrayList<>(List.of("cdat", "--master", "local[2]", "--json", json.toString()));
        head.addAll(conf);
        ClusterFixture.Run r = cluster(args(head, folder + "/fj.4", cfg.toString()));
        try {
            shuffled(r);
            assertArrayEquals(Files.readAllBytes(serial.resolve("fj.4.cdat_report")),
                    Files.readAllBytes(here("fj.4.cdat_report")), "report");
            assertArrayEquals(Files.readAllBytes(serial.resolve("r.json")), Files.readAllBytes(json), "JSON");
        } finally {
            deleteOutputs("fj.4");
        }
    }

    /** Asserts that run {@code r} succeeded, its 4 thread traces routed by 4 map tasks. */
    private static void shuffled(ClusterFixture.Run r) {
        ok(r);
        assertTrue(r.err().contains("records shuffled by address partition: 4 trace files read once by 4 map tasks"),
                r.err());
    }

    /** Overwrites the 8 bytes at the middle record boundary of {@code f} with a record type that does not exist. */
    static void corrupt(Path f) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(raf.length() / 2 & ~7L);
            raf.write(new byte[] {(byte) 0xEE, (byte) 0xEE, (byte) 0xEE, (byte) 0xEE, (byte) 0xEE, (byte) 0xEE,
                (byte) 0xEE, (byte) 0xEE});
        }
    }

    /** File {@code name} in the current folder, where a run on a Hadoop URI writes its outputs. */
    static Path here(String name) {
        return Path.of("").toAbsolutePath().resolve(name);
    }

    /** Deletes the outputs named for set {@code set} from the current folder. */
    static void deleteOutputs(String set) throws IOException {
        for (String o : CIAT_OUTPUTS) {
            Files.deleteIfExists(here(set + "." + o));
        }
        Files.deleteIfExists(here(set + ".cdat_report"));
    }

    /** Asserts a failed run: status 2, one line {@code dsmscope: …} containing {@code want}, no report written. */
    static String failsNaming(ClusterFixture.Run r, String want) throws IOException {
        try {
            assertEquals(2, r.status(), r.err());
            List<String> lines = r.err().lines().filter(l -> l.startsWith("dsmscope: ") && !l.contains("Spark UI"))
                    .toList();
            assertEquals(1, lines.size(), r.err());
            assertTrue(lines.get(0).contains(want), lines.get(0));
            assertFalse(r.err().contains("\tat "), r.err());
            assertFalse(Files.exists(here("fj.4.ciat_report")), "a report was written");
            return lines.get(0);
        } finally {
            deleteOutputs("fj.4");
        }
    }
}
