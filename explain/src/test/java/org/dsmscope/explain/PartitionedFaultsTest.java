package org.dsmscope.explain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.trace.CallType;
import org.junit.jupiter.api.Test;

/**
 * The partitioned simulation ({@link PartitionedFaults}: each partition keeps the pages or lines dealt to it and the
 * whole synchronization skeleton; the merge puts the records in serial order) against the serial one, on random
 * programs of accesses (some crossing a line or a page), lock acquires and releases, barriers and a spawn, in 1, 2,
 * 3 and 7 partitions: the same fault trace, record for record, and per line the same misses and byte masks.
 */
class PartitionedFaultsTest {
    private static final int[] PARTS = {1, 2, 3, 7};

    /** Records everything a sink receives, one string a record. */
    private static final class Recorder implements FaultSink {
        final List<String> out = new ArrayList<>();

        @Override
        public void fault(int id, long time, int proc, long unit, boolean write, long address, long site, int offset,
                int size) {
            out.add("F " + id + " " + time + " " + proc + " " + unit + (write ? " W " : " R ") + address + " " + site
                    + " " + offset + "+" + size);
        }

        @Override
        public void sync(long time, int proc, int kind, long[] units, int[] faults, int n) {
            StringBuilder sb = new StringBuilder("S " + time + " " + proc + " " + KIND_NAMES[kind]);
            for (int i = 0; i < n; i++) {
                sb.append(' ').append(units[i]).append(':').append(faults[i]);
            }
            out.add(sb.toString());
        }
    }

    /**
     * Drives {@code sim} with the program {@code ops} of {@code n} threads: each int is an access (thread, one of 8
     * pages, one of 4 lines near the start or the end of the page, read or write, 8 bytes, or 8 bytes from 4 before
     * a line's end: crossing it), a lock or unlock of one of two locks, a barrier, or thread 0 spawning the last
     * thread (which starts with its first event).
     */
    static void drive(DsmSimulator sim, int n, List<Integer> ops) {
        CallEvent c = new CallEvent();
        long clock = 0;
        for (int x : ops) {
            int t = x % n;
            int kind = (x / 8) % 16;
            clock += 1 + (x / 128) % 3;
            c.arg1 = 0x100 + (x / 2048) % 2;
            if (kind == 12 || kind == 13) {
                c.type = kind == 12 ? CallType.BEGIN_CRITICAL : CallType.END_CRITICAL;
                sim.call(t, t, clock, c);
            } else if (kind == 14) {
                c.type = CallType.BARRIER;
                c.arg1 = 0x200;
                c.arg2 = n;
                for (int u = 0; u < n; u++) {
                    sim.call(u, u, clock, c);
                }
            } else if (kind == 15) {
                c.type = CallType.SPAWN;
                c.arg3 = n - 1;
                sim.call(0, 0, clock, c);
            } else {
                long page = (x / 4096) % 8;
                int line = (x / 32768) % 4;
                long lineStart = page * 4096 + (line < 2 ? line * 64 : 4096 - (4 - line) * 64);
                boolean crossing = (x / 131072) % 4 == 3;
                long address = crossing ? lineStart + 60 : lineStart + 8 * ((x / 512) % 8);
                sim.access(t, t, clock, 0, 8, kind % 3 == 0, address);
            }
        }
    }

    private static void assertSameAsSerial(boolean lines, int n, List<Integer> ops) {
        int unit = lines ? 64 : 4096;
        Recorder serial = new Recorder();
        DsmSimulator s = new DsmSimulator(lines, unit, serial, null);
        s.begin(new DirectContext(n));
        drive(s, n, ops);
        for (int parts : PARTS) {
            List<PartitionedFaults.Log> logs = new ArrayList<>();
            List<DsmSimulator> sims = new ArrayList<>();
            for (int k = 0; k < parts; k++) {
                PartitionedFaults.Log log = PartitionedFaults.log(lines, unit);
                DsmSimulator sim = new DsmSimulator(lines, unit, log, null);
                log.sim = sim;
                sim.begin(new DirectContext(n, k, parts));
                drive(sim, n, ops);
                logs.add(log);
                sims.add(sim);
            }
            PartitionedFaults pf = PartitionedFaults.of(logs, sims);
            Recorder merged = new Recorder();
            pf.merge(merged);
            assertEquals(serial.out, merged.out, parts + " partitions");
            if (lines) {
                for (long line = 0; line < 8 * 64; line++) {
                    assertEquals(s.coherenceMisses(line), pf.coherenceMisses().applyAsInt(line), "misses " + line);
                    long[][] a = s.masks(line);
                    long[][] b = pf.masks().apply(line);
                    for (int p = 0; p < n; p++) {
                        assertArrayEquals(a[p], b[p], "masks of line " + line + ", processor " + p);
                    }
                }
            }
        }
    }

    @Property(tries = 150)
    void pages_partitionedFaultTraceIsTheSerialOne(@ForAll @IntRange(min = 2, max = 4) int n,
            @ForAll @Size(max = 300) List<@IntRange(min = 0, max = 1 << 20) Integer> ops) {
        assertSameAsSerial(false, n, ops);
    }

    @Property(tries = 150)
    void lines_partitionedFaultTraceMissesAndMasksAreTheSerialOnes(@ForAll @IntRange(min = 2, max = 4) int n,
            @ForAll @Size(max = 300) List<@IntRange(min = 0, max = 1 << 20) Integer> ops) {
        assertSameAsSerial(true, n, ops);
    }

    @Test
    void acquireInvalidatingPagesOfTwoPartitions_isOneRecordWithThePairsInUnitOrder() {
        // 0 writes pages 1 and 0 (partitions 1 and 0 of 2) under a lock, 1 reads both first, then locks
        List<Integer> ops = new ArrayList<>();
        int read1 = 1 + 0 * 8 + 4096;
        ops.add(read1);
        ops.add(1 + 8);
        ops.add(0 + 4096);
        ops.add(0);
        ops.add(0 + 13 * 8);
        ops.add(1 + 12 * 8);
        assertSameAsSerial(false, 2, ops);
        Recorder serial = new Recorder();
        DsmSimulator s = new DsmSimulator(false, 4096, serial, null);
        s.begin(new DirectContext(2));
        drive(s, 2, ops);
        assertEquals("S 10 1 acquire 0:3 1:2", serial.out.get(serial.out.size() - 1));
    }
}
