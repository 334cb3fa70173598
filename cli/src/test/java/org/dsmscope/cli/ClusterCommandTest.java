package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dsmscope cluster}: finds the cluster jar, or says in one line how to build it. */
class ClusterCommandTest {
    @TempDir
    Path home;

    @Test
    void withoutTheClusterJar_saysHowToBuildItWithStatus2() throws Throwable {
        inHome(() -> {
            CiatCommandTest.Run r = CiatCommandTest.run("cluster", "ciat", "--master", "local[2]", "fj.4");
            assertEquals(2, r.status(), r.err());
            assertTrue(r.err().startsWith("dsmscope: cluster: the cluster jar is not built")
                    && r.err().contains(ClusterCommand.BUILD) && r.err().lines().count() == 1, r.err());
        });
    }

    /** Runs {@code body} with {@code dsmscope.home} set to the test's folder, then puts the property back. */
    private void inHome(org.junit.jupiter.api.function.Executable body) throws Throwable {
        String was = System.getProperty("dsmscope.home");
        System.setProperty("dsmscope.home", home.toString());
        try {
            body.execute();
        } finally {
            if (was == null) {
                System.clearProperty("dsmscope.home");
            } else {
                System.setProperty("dsmscope.home", was);
            }
        }
    }

    private static CiatCommandTest.Run runAlone(String... args) {
        return CiatCommandTest.run(Main.clusterCommandLine(), args);
    }

    @Test
    void theLaunchersClusterCommandAlone_givesTheTreesHelpErrorsAndStatuses() throws Throwable {
        inHome(() -> {
            for (String[] a : new String[][] {{"--help"}, {}, {"ciat", "--master", "local[2]", "fj.4"}}) {
                List<String> tree = new ArrayList<>(List.of("cluster"));
                tree.addAll(List.of(a));
                CiatCommandTest.Run full = CiatCommandTest.run(tree.toArray(new String[0]));
                CiatCommandTest.Run alone = runAlone(a);
                assertEquals(full, alone, String.join(" ", a));
            }
            assertTrue(runAlone("--help").out().startsWith("Usage: dsmscope cluster"), runAlone("--help").out());
        });
    }

    @Test
    void anAnalysisStartsItsChildWithoutPicocli_withTheSameErrorAndStatus() throws Throwable {
        assertTrue(Main.clusterAnalysis(new String[] {"cluster", "ciat", "--master", "local[2]", "fj.4"}));
        assertTrue(Main.clusterAnalysis(new String[] {"cluster", "cdat", "fj.4", "x.cfg"}));
        assertFalse(Main.clusterAnalysis(new String[] {"cluster", "--help"}));
        assertFalse(Main.clusterAnalysis(new String[] {"cluster"}));
        assertFalse(Main.clusterAnalysis(new String[] {"ciat", "fj.4"}));
        assertFalse(Main.clusterAnalysis(new String[] {"cluster", "ciat", "@options.txt"}), "picocli expands @files");
        inHome(() -> {
            String[] a = {"ciat", "--master", "local[2]", "fj.4"};
            java.io.StringWriter err = new java.io.StringWriter();
            int status = Main.launchCluster(a, new java.io.PrintWriter(err));
            CiatCommandTest.Run viaPicocli = runAlone(a);
            assertEquals(viaPicocli.status(), status);
            assertEquals(viaPicocli.err(), err.toString());
            assertTrue(err.toString().startsWith("dsmscope: cluster: the cluster jar is not built"), err.toString());
        });
    }

    @Test
    void theNewestShadedJarInClusterTarget_isChosen_andAnExplicitOneMustExist() throws Exception {
        Path target = Files.createDirectories(home.resolve("cluster/target"));
        Path old = Files.writeString(target.resolve("dsmscope-cluster-0.1-all.jar"), "");
        Path now = Files.writeString(target.resolve("dsmscope-cluster-0.2-all.jar"), "");
        Files.writeString(target.resolve("dsmscope-cluster-0.3.jar"), "");
        Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.fromMillis(1000));
        assertEquals(now, ClusterCommand.jar(null, home.toString()));
        assertEquals(old, ClusterCommand.jar(old.toString(), null));
        UserError e = assertThrows(UserError.class, () -> ClusterCommand.jar(home.resolve("no.jar").toString(), null));
        assertTrue(e.getMessage().contains("DSMSCOPE_CLUSTER_JAR"), e.getMessage());
    }

    @Test
    void theChildJvmSharesItsClassesThroughAnArchiveBesideTheJar_madeByTheFirstAnalysis() throws Exception {
        Path jar = Files.writeString(home.resolve("dsmscope-cluster-0.2-all.jar"), "");
        Path archive = home.resolve("dsmscope-cluster-0.2-all.jsa");
        assertEquals(archive, ClusterCommand.archive(jar));
        // no archive yet: an analysis makes one under a temporary name, its help does not
        List<String> cmd = new ArrayList<>();
        Path making = ClusterCommand.classArchive(jar, cmd, null, List.of("ciat", "fj.4"));
        assertTrue(making != null && making.getParent().equals(home) && cmd.contains("-XX:ArchiveClassesAtExit="
                + making), cmd.toString());
        cmd.clear();
        assertNull(ClusterCommand.classArchive(jar, cmd, null, List.of("ciat", "--help")));
        assertFalse(cmd.stream().anyMatch(c -> c.contains("Archive")), cmd.toString());
        // an archive newer than the jar is used
        Files.writeString(archive, "");
        Files.setLastModifiedTime(jar, java.nio.file.attribute.FileTime.fromMillis(1000));
        cmd.clear();
        assertNull(ClusterCommand.classArchive(jar, cmd, null, List.of("ciat", "fj.4")));
        assertTrue(cmd.contains("-XX:SharedArchiveFile=" + archive), cmd.toString());
        // one older than the jar is made again
        Files.setLastModifiedTime(archive, java.nio.file.attribute.FileTime.fromMillis(500));
        cmd.clear();
        assertTrue(ClusterCommand.classArchive(jar, cmd, null, List.of("cdat", "fj.4", "x.cfg")) != null);
        // class sharing set by the user's JVM options: left alone
        cmd.clear();
        assertNull(ClusterCommand.classArchive(jar, cmd, "-Xmx2g -Xshare:off", List.of("ciat", "fj.4")));
        assertTrue(cmd.isEmpty(), cmd.toString());
    }

    @Test
    void aLocalMastersChild_takesItsUserFromSparkUser_otherMastersKeepHadoops() {
        java.util.Map<String, String> env = new java.util.HashMap<>();
        ClusterCommand.sparkUser(env, List.of("ciat", "--master", "local[2]", "fj.4"), "ann");
        assertEquals("ann", env.get("SPARK_USER"));
        env.clear();
        ClusterCommand.sparkUser(env, List.of("ciat", "fj.4"), "ann");
        assertEquals("ann", env.get("SPARK_USER"), "no --master: local[*]");
        env.clear();
        ClusterCommand.sparkUser(env, List.of("ciat", "--master=spark://h:7077", "fj.4"), "ann");
        ClusterCommand.sparkUser(env, List.of("ciat", "--master", "yarn", "fj.4"), "ann");
        assertTrue(env.isEmpty(), env.toString());
        env.put("SPARK_USER", "bob");
        ClusterCommand.sparkUser(env, List.of("ciat", "fj.4"), "ann");
        assertEquals("bob", env.get("SPARK_USER"), "the user's own setting is kept");
    }

    @Test
    void addedJars_runTheClusterJarsEntryPointOnAClassPathWithThem_withoutAClassArchive() throws Exception {
        List<String> cmd = new ArrayList<>();
        Path jar = home.resolve("dsmscope-cluster-1-all.jar");
        ClusterCommand.launchClassPath(cmd, jar, " /opt/hadoop-aws.jar:/opt/s3.jar ");
        assertEquals(List.of("-cp", jar + java.io.File.pathSeparator + "/opt/hadoop-aws.jar:/opt/s3.jar",
                ClusterCommand.MAIN), cmd);
        String pom = Files.readString(Path.of("..", "cluster", "pom.xml"));
        assertTrue(pom.contains("<mainClass>" + ClusterCommand.MAIN + "</mainClass>"),
                "the entry point named is the shaded jar's Main-Class");
    }
}
