package org.dsmscope.cdat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.trace.TraceSet;

/**
 * Partitions shipped as {@link CdatPart}s (serialized and read back, as Spark's task results are) and merged by
 * {@link Cdat#mergeParts} give the serial run's report and JSON (round robin and first-touch placement, every
 * protocol variant, interconnect caches).
 */
class CdatPartTest {
    /** The policies that need no memory usage file (placement by first reference included). */
    private static final String[] POLICIES = {"RR1", "1Touch"};

    @Property(tries = 6)
    void shippedPartitions_mergeIntoTheSerialRunsReportAndJson(@ForAll @IntRange(min = 2, max = 5) int parts,
            @ForAll @IntRange(min = 0, max = 1) int policy, @ForAll @IntRange(min = 1, max = 8) int protocol,
            @ForAll long seed) throws Exception {
        Path dir = Files.createTempDirectory("cdat-part-ship");
        try {
            ForkJoinGen.Params p = new ForkJoinGen.Params();
            p.threads = 4;
            p.instructions = 2000;
            p.sharedBytes = 16 << 10;
            p.seed = seed;
            TraceSet set = ForkJoinGen.write(dir, "s", p);
            CdatConfig cfg = CdatConfig.parse("c", "nodes = 2\nprocessors_per_node = 2\nprotocol = " + protocol
                    + "\npage_policy = " + POLICIES[policy] + "\ndata_cache = 4K 2 lru\ninstruction_cache = 4K 2 lru\n"
                    + "interconnect_cache = 16K 2 lru\n");
            CdatOptions o = new CdatOptions();
            o.json = dir.resolve("serial.json");
            new Replay(set, null, new ReplayOptions()).add(new Cdat(cfg, o)).run();
            Path report = Path.of(set.base() + ".cdat_report");
            byte[] want = Files.readAllBytes(report);
            Files.delete(report);
            List<Cdat> ran = Replay.runPartitioned(set, null, new ReplayOptions(), parts, k -> {
                CdatOptions po = new CdatOptions();
                po.writeFiles = false;
                return new Cdat(cfg, po);
            });
            List<CdatPart> shipped = new ArrayList<>();
            for (Cdat c : ran) {
                shipped.add(roundTrip(c.part()));
            }
            CdatOptions mo = new CdatOptions();
            mo.json = dir.resolve("merged.json");
            Cdat merged = Cdat.mergeParts(cfg, mo, shipped, new Replay(set, null, new ReplayOptions()), set.base());
            assertEquals(List.of(report, mo.json), merged.written());
            assertArrayEquals(want, Files.readAllBytes(report), "report");
            assertEquals(Files.readString(o.json), Files.readString(mo.json));
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    private static CdatPart roundTrip(CdatPart p) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(p);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (CdatPart) in.readObject();
        }
    }
}
