package org.dsmscope.cluster;

import static org.dsmscope.cluster.ClusterFixture.args;
import static org.dsmscope.cluster.ClusterFixture.cluster;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster ciat|cdat --master local[2]} on trace sets in HDFS (an in-process {@link MiniDFSCluster}, a name
 * node and one data node on 127.0.0.1): read through Hadoop's {@code FileSystem} (cluster/README.md "Trace sets"),
 * the outputs are the serial run's byte for byte; a set that is not there, is corrupt or may not be read is one line
 * naming its URI, exit status 2.
 */
class HdfsClusterTest {
    @TempDir
    static Path tmp;
    /** The name node's user. */
    private static final UserGroupInformation HDFS = UserGroupInformation.createRemoteUser("hdfs");
    private static MiniDFSCluster dfs;
    /** {@code hdfs://127.0.0.1:PORT}. */
    private static String root;

    @BeforeAll
    static void startHdfs() throws Exception {
        // the name node runs as user "hdfs", its superuser; this JVM's own user (the cluster command's) is a plain
        // user of it, who writes in /traces (mode 777) and to whom a folder of mode 700 of "hdfs" is closed
        Configuration conf = new Configuration();
        conf.set("dfs.replication", "1");
        dfs = HDFS.doAs((PrivilegedExceptionAction<MiniDFSCluster>) () -> {
            MiniDFSCluster c = new MiniDFSCluster.Builder(conf, tmp.resolve("dfs").toFile()).numDataNodes(1)
                    .storagesPerDatanode(1).build();
            c.waitActive();
            FileSystem fs = c.getFileSystem();
            fs.mkdirs(new org.apache.hadoop.fs.Path("/traces"));
            fs.setPermission(new org.apache.hadoop.fs.Path("/traces"), new FsPermission((short) 0777));
            return c;
        });
        root = "hdfs://127.0.0.1:" + dfs.getNameNodePort();
    }

    @AfterAll
    static void stopHdfs() {
        if (dfs != null) {
            dfs.shutdown(true);
        }
    }

    private static void upload(Path local, String folder) throws IOException {
        HadoopFixture.upload(local, folder, dfs.getConfiguration(0));
    }

    @Test
    void ciatOnHdfs_writesTheSerialRunsReportMemoryEventsAndJson() throws Exception {
        HadoopFixture.ciatMatchesSerial(tmp.resolve("ciat"), root + "/traces/ciat",
                HdfsClusterTest::upload, List.of());
    }

    @Test
    void cdatOnHdfs_writesTheSerialRunsReportAndJson() throws Exception {
        HadoopFixture.cdatMatchesSerial(tmp.resolve("cdat"), root + "/traces/cdat",
                HdfsClusterTest::upload, List.of());
    }

    @Test
    void aThreadTraceMissingOnHdfs_isOneLineNamingItsUriWithStatus2() throws Exception {
        Path local = Files.createDirectories(tmp.resolve("missing"));
        ClusterFixture.forkJoin(local, 2_000);
        String folder = root + "/traces/missing";
        upload(local, folder);
        FileSystem fs = dfs.getFileSystem();
        assertTrue(fs.delete(new org.apache.hadoop.fs.Path("/traces/missing/fj.4.3"), false));
        ClusterFixture.Run r = cluster(args(List.of("ciat", "--master", "local[2]"), folder + "/fj.4"));
        HadoopFixture.failsNaming(r, folder + "/fj.4.3: no such trace file");
    }

    @Test
    void aCorruptRecordOnHdfs_isOneLineNamingItsUriAndOffsetWithStatus2() throws Exception {
        Path local = Files.createDirectories(tmp.resolve("corrupt"));
        ClusterFixture.forkJoin(local, 5_000);
        HadoopFixture.corrupt(local.resolve("fj.4.2"));
        String folder = root + "/traces/corrupt";
        upload(local, folder);
        ClusterFixture.Run r = cluster(args(List.of("ciat", "--master", "local[2]"), folder + "/fj.4"));
        String line = HadoopFixture.failsNaming(r, folder + "/fj.4.2");
        assertTrue(line.contains("byte offset"), line);
    }

    @Test
    void aFolderClosedToTheUser_isOneLineNamingItsUriWithStatus2() throws Exception {
        Path local = Files.createDirectories(tmp.resolve("closed"));
        ClusterFixture.forkJoin(local, 2_000);
        String folder = root + "/closed";
        HDFS.doAs((PrivilegedExceptionAction<Void>) () -> {
            upload(local, folder);
            dfs.getFileSystem().setPermission(new org.apache.hadoop.fs.Path("/closed"),
                    new FsPermission((short) 0700));
            return null;
        });
        ClusterFixture.Run r = cluster(args(List.of("ciat", "--master", "local[2]"), folder + "/fj.4"));
        String line = HadoopFixture.failsNaming(r, folder + "/fj.4: cannot read");
        assertTrue(line.contains("Permission denied"), line);
    }

    @Test
    void aFolderNotOnHdfs_isOneLineNamingItsUriWithStatus2() throws Exception {
        String uri = root + "/nowhere/fj.4";
        ClusterFixture.Run r = cluster(args(List.of("ciat", "--master", "local[2]"), uri));
        HadoopFixture.failsNaming(r, uri);
    }
}
