package org.dsmscope.ciat;

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
import org.dsmscope.ciat.age.AccessAge;
import org.dsmscope.ciat.report.JsonReport;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.trace.TraceSet;

/**
 * Partitions shipped as {@link CiatPart}s (serialized and read back, as Spark's task results are) and merged by
 * {@link Partitioned#mergeAndWriteParts} give the serial run's report, memory usage file, event trace and JSON.
 */
class CiatPartTest {
    @Property(tries = 6)
    void shippedPartitions_mergeIntoTheSerialRunsOutputs(@ForAll @IntRange(min = 2, max = 4) int parts,
            @ForAll long seed, @ForAll boolean global) throws Exception {
        Path dir = Files.createTempDirectory("ciat-part-ship");
        try {
            ForkJoinGen.Params p = new ForkJoinGen.Params();
            p.threads = 3;
            p.instructions = 3000;
            p.sharedBytes = 16 << 10;
            p.lockRate = 0.02;
            p.seed = seed;
            TraceSet set = ForkJoinGen.write(dir, "s", p);
            CiatOptions o = options(global);
            o.json = dir.resolve("serial.json");
            new Replay(set, null, new ReplayOptions()).add(new Ciat(o)).run();
            List<Path> serial = List.of(Path.of(set.base() + ".ciat_report"), Path.of(set.base() + ".memory"),
                    Path.of(set.base() + ".ciat_events"));
            List<byte[]> want = new ArrayList<>();
            for (Path f : serial) {
                want.add(Files.readAllBytes(f));
                Files.delete(f);
            }
            List<Ciat> ran = Replay.runPartitioned(set, null, new ReplayOptions(), parts, k -> {
                CiatOptions po = options(global);
                po.writeFiles = false;
                return new Ciat(po);
            });
            List<CiatPart> shipped = new ArrayList<>();
            for (Ciat c : ran) {
                shipped.add(roundTrip(CiatPart.of(c)));
            }
            CiatOptions mo = options(global);
            mo.json = dir.resolve("merged.json");
            List<Path> written = new ArrayList<>();
            CiatResult merged = Partitioned.mergeAndWriteParts(shipped, set.base(), mo, List.of(), 0, written);
            assertEquals(List.of(serial.get(0), serial.get(1), serial.get(2), mo.json), written);
            for (int i = 0; i < serial.size(); i++) {
                assertArrayEquals(want.get(i), Files.readAllBytes(serial.get(i)), serial.get(i).toString());
            }
            assertEquals(Files.readString(o.json), Files.readString(mo.json));
            assertEquals(Files.readString(o.json).strip(), JsonReport.toJson(merged).strip());
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    private static CiatOptions options(boolean global) {
        CiatOptions o = new CiatOptions();
        o.events = true;
        o.ageScope = global ? AccessAge.Scope.GLOBAL : AccessAge.Scope.THREAD;
        return o;
    }

    private static CiatPart roundTrip(CiatPart p) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(p);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (CiatPart) in.readObject();
        }
    }
}
