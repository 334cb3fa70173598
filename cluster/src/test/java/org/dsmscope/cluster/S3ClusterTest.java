package org.dsmscope.cluster;

import static org.dsmscope.cluster.ClusterFixture.args;
import static org.dsmscope.cluster.ClusterFixture.cluster;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster ciat|cdat --master local[2]} on trace sets in S3: {@code s3a://} URIs read through Hadoop's S3A
 * connector and the AWS SDK from an S3-compatible server on 127.0.0.1 ({@link FolderS3Server}), configured as a
 * user does with {@code --conf spark.hadoop.fs.s3a.…} (cluster/README.md "Trace sets"); the outputs are the serial
 * run's byte for byte, and a set that is not there or may not be read is one line naming its URI, exit status 2.
 */
class S3ClusterTest {
    @TempDir
    static Path tmp;
    private static Path buckets;
    private static FolderS3Server s3;

    @BeforeAll
    static void startS3() throws IOException {
        buckets = Files.createDirectories(tmp.resolve("buckets"));
        Files.createDirectories(buckets.resolve("traces"));
        Files.createDirectories(buckets.resolve("locked"));
        s3 = new FolderS3Server(buckets);
    }

    @AfterAll
    static void stopS3() {
        if (s3 != null) {
            s3.close();
        }
    }

    /** The settings a user gives for an S3-compatible store: endpoint, path-style access, credentials. */
    private static List<String> s3Conf(String accessKey) {
        List<String> c = new ArrayList<>();
        for (String kv : List.of("fs.s3a.endpoint=" + s3.endpoint(), "fs.s3a.endpoint.region=us-east-1",
                "fs.s3a.path.style.access=true", "fs.s3a.access.key=" + accessKey,
                "fs.s3a.secret.key=" + FolderS3Server.SECRET_KEY, "fs.s3a.retry.limit=1",
                "fs.s3a.attempts.maximum=1")) {
            c.add("--conf");
            c.add("spark.hadoop." + kv);
        }
        return c;
    }

    /** Puts the files of {@code local} under {@code s3a://BUCKET/KEY} (the server's folder for it). */
    private static void upload(Path local, String folder) throws IOException {
        ClusterFixture.copy(local, buckets.resolve(folder.substring("s3a://".length())));
    }

    /** {@code cluster ciat --master local[2] URI}, signed with {@code accessKey}. */
    private static ClusterFixture.Run ciat(String uri, String accessKey) {
        List<String> head = new ArrayList<>(List.of("ciat", "--master", "local[2]"));
        head.addAll(s3Conf(accessKey));
        return cluster(args(head, uri));
    }

    @Test
    void ciatOnS3_writesTheSerialRunsReportMemoryEventsAndJson() throws Exception {
        HadoopFixture.ciatMatchesSerial(tmp.resolve("ciat"), "s3a://traces/ciat",
                S3ClusterTest::upload, s3Conf(FolderS3Server.ACCESS_KEY));
    }

    @Test
    void cdatOnS3_writesTheSerialRunsReportAndJson() throws Exception {
        HadoopFixture.cdatMatchesSerial(tmp.resolve("cdat"), "s3a://traces/cdat",
                S3ClusterTest::upload, s3Conf(FolderS3Server.ACCESS_KEY));
    }

    @Test
    void aThreadTraceMissingOnS3_isOneLineNamingItsUriWithStatus2() throws Exception {
        Path local = Files.createDirectories(tmp.resolve("missing"));
        ClusterFixture.forkJoin(local, 2_000);
        Files.delete(local.resolve("fj.4.3"));
        upload(local, "s3a://traces/missing");
        HadoopFixture.failsNaming(ciat("s3a://traces/missing/fj.4", FolderS3Server.ACCESS_KEY),
                "s3a://traces/missing/fj.4.3: no such trace file");
    }

    @Test
    void aCorruptRecordOnS3_isOneLineNamingItsUriAndOffsetWithStatus2() throws Exception {
        Path local = Files.createDirectories(tmp.resolve("corrupt"));
        ClusterFixture.forkJoin(local, 5_000);
        HadoopFixture.corrupt(local.resolve("fj.4.1"));
        upload(local, "s3a://traces/corrupt");
        String line = HadoopFixture.failsNaming(ciat("s3a://traces/corrupt/fj.4", FolderS3Server.ACCESS_KEY),
                "s3a://traces/corrupt/fj.4.1");
        assertTrue(line.contains("byte offset"), line);
    }

    @Test
    void aSchemeWhoseConnectorIsNotOnTheClassPath_isOneLineNamingTheUriWithStatus2() throws Exception {
        // as s3a: without hadoop-aws: Hadoop's configuration names a file system class that is not there
        ClusterFixture.Run r = cluster(args(List.of("ciat", "--master", "local[2]", "--conf",
                "spark.hadoop.fs.gone.impl=org.dsmscope.NoSuchFileSystem"), "gone://bucket/traces/fj.4"));
        String line = HadoopFixture.failsNaming(r, "gone://bucket/traces/fj.4: cannot read");
        assertTrue(line.contains("org.dsmscope.NoSuchFileSystem"), line);
    }

    @Test
    void aSetTheCredentialsMayNotRead_isOneLineNamingItsUriWithStatus2() throws Exception {
        Path local = Files.createDirectories(tmp.resolve("denied"));
        ClusterFixture.forkJoin(local, 2_000);
        upload(local, "s3a://locked/denied");
        String line = HadoopFixture.failsNaming(ciat("s3a://locked/denied/fj.4", "not-a-key"),
                "s3a://locked/denied/fj.4");
        assertTrue(line.contains("cannot read"), line);
    }
}
