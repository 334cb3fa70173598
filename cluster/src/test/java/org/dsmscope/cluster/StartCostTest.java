package org.dsmscope.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.dsmscope.trace.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the cluster command does to start cheaply (cluster/README.md "Running it", "What is shuffled"): the number of
 * partitions known before the Spark context, the driver's prescan made while the context starts, and the executors
 * that need no copy of the shaded jar.
 */
class StartCostTest {
    private static SparkFlags flags(String master, int partitions, String... conf) {
        SparkFlags f = new SparkFlags();
        f.master = master;
        f.partitions = partitions;
        f.conf = List.of(conf);
        return f;
    }

    @Test
    void partitionsAreKnownBeforeTheContextForAGivenCountAndForLocalMasters() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(3, flags("spark://h:7077", 3).knownPartitions());
        assertEquals(1, flags("local", 0).knownPartitions());
        assertEquals(4, flags("local[4]", 0).knownPartitions());
        assertEquals(2, flags("local[2,3]", 0).knownPartitions());
        assertEquals(cores, flags("local[*]", 0).knownPartitions());
        assertEquals(cores, flags("local[*,2]", 0).knownPartitions());
    }

    @Test
    void partitionsAreLeftToTheContextForOtherMastersOrSettingsThatChangeTheCount() {
        assertEquals(0, flags("spark://h:7077", 0).knownPartitions());
        assertEquals(0, flags("yarn", 0).knownPartitions());
        assertEquals(0, flags("local-cluster[2,1,1024]", 0).knownPartitions());
        assertEquals(0, flags("local[2]", 0, "spark.default.parallelism=5").knownPartitions());
        assertEquals(0, flags("local[2]", 0, "spark.master=spark://h:7077").knownPartitions());
        assertEquals(0, flags("local[2000]", 0).knownPartitions());
    }

    @Test
    void executorsThatHaveTheJarOnTheirClassPathAreNotSentIt() {
        String jar = "/opt/dsmscope/dsmscope-cluster-0.1.0-all.jar";
        assertTrue(SparkRun.onClassPath("/srv/jars/dsmscope-cluster-0.1.0-all.jar", jar));
        assertTrue(SparkRun.onClassPath("/srv/a.jar:/srv/jars/dsmscope-cluster-0.1.0-all.jar", jar));
        assertTrue(SparkRun.onClassPath("dsmscope-cluster-0.1.0-all.jar", jar));
        assertFalse(SparkRun.onClassPath("", jar));
        assertFalse(SparkRun.onClassPath("/srv/jars/*", jar));
        assertFalse(SparkRun.onClassPath("/srv/jars/old-dsmscope-cluster-0.1.0-all.jar", jar));
    }

    private static CiatJob job(Path set) {
        CiatJob job = new CiatJob();
        job.detailed = TraceInput.of(set.toString(), "auto");
        return job;
    }

    @Test
    void thePrescanMadeAheadIsThePlanOfTheCountTheContextGives(@TempDir Path dir) {
        ClusterFixture.forkJoin(dir, 20_000);
        Driver.Ahead ahead = Driver.ahead(job(dir.resolve("fj.4")), 3);
        assertNotNull(ahead);
        try (Driver d = ahead.take(3)) {
            assertEquals(3, d.plan.parts());
            assertEquals(4, d.plan.threads());
            assertTrue(d.plan.routable());
        }
    }

    @Test
    void aPrescanMadeAheadForAnotherCountIsDroppedAndMadeAgain(@TempDir Path dir) {
        ClusterFixture.forkJoin(dir, 20_000);
        Driver.Ahead ahead = Driver.ahead(job(dir.resolve("fj.4")), 3);
        assertNull(ahead.take(2));
        assertNull(Driver.ahead(job(dir.resolve("fj.4")), 0));
    }

    @Test
    void aPrescanMadeAheadGivesTheTraceSetsErrorWhenTaken(@TempDir Path dir) {
        Driver.Ahead ahead = Driver.ahead(job(dir.resolve("none.4")), 2);
        BadInputException e = assertThrows(BadInputException.class, () -> ahead.take(2));
        assertTrue(e.getMessage().contains("none.4"), e.getMessage());
    }

    @Test
    void traceSetsCopiedThroughHadoopArePrescannedWithTheContext(@TempDir Path dir) {
        CiatJob job = new CiatJob();
        job.detailed = TraceInput.of(dir.resolve("fj.4").toUri().toString(), "copy");
        assertNull(Driver.ahead(job, 2));
    }
}
