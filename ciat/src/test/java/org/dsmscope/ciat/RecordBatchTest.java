package org.dsmscope.ciat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;

/**
 * The packed batch gives back exactly the records appended, in order: every kind, fields at and beyond the
 * header's limits (threads and processors of 16 bits and more, sizes of 20 bits and more, types of 8 bits and
 * more, negative clocks and addresses), which go into wide records; without clocks, accesses read as clock 0.
 */
class RecordBatchTest {

    @Property(tries = 200)
    void readGivesBackWhatWasAppended(@ForAll long seed, @ForAll @IntRange(min = 2, max = 400) int capacity,
            @ForAll boolean clocks) {
        Random r = new Random(seed);
        RecordBatch b = new RecordBatch(capacity, clocks);
        List<String> in = new ArrayList<>();
        while (!b.full()) {
            int t = field(r, 16);
            int c = field(r, 16);
            long clk = r.nextBoolean() ? r.nextInt(1000) : r.nextLong();
            long x = r.nextBoolean() ? r.nextInt(1 << 20) : r.nextLong();
            switch (r.nextInt(7)) {
                case 0: {
                    int type = field(r, 8);
                    int size = field(r, 20);
                    boolean store = r.nextBoolean();
                    boolean sync = r.nextBoolean();
                    b.access(t, c, clk, type, size, store, x, sync);
                    in.add("access " + t + " " + c + " " + (clocks ? clk : 0) + " " + type + " " + size + " " + store + " " + x + " "
                            + sync);
                    break;
                }
                case 1: {
                    int size = field(r, 20);
                    b.fetch(t, c, clk, x, size);
                    in.add("fetch " + t + " " + c + " " + clk + " " + x + " " + size);
                    break;
                }
                case 2: {
                    int kind = field(r, 8);
                    long y = r.nextLong();
                    b.branch(t, c, clk, kind, x, y);
                    in.add("branch " + t + " " + c + " " + clk + " " + kind + " " + x + " " + y);
                    break;
                }
                case 3: {
                    CallEvent e = new CallEvent();
                    e.type = r.nextInt(40);
                    e.startTime = r.nextLong();
                    e.endTime = r.nextLong();
                    e.arg1 = r.nextLong();
                    e.arg4 = r.nextLong();
                    e.waitClocks = r.nextLong();
                    b.call(t, c, clk, e);
                    in.add("call " + t + " " + c + " " + clk + " " + describe(e));
                    break;
                }
                default: {
                    int kind = RecordBatch.PHASE_BEGIN + r.nextInt(3);
                    Phase p = new Phase(1 + r.nextInt(9), Phase.Kind.PARALLEL, clk, 0);
                    PhaseTimes pt = new PhaseTimes(2);
                    b.control(kind, p, pt);
                    in.add("control " + kind + " " + System.identityHashCode(p) + " " + System.identityHashCode(pt));
                    break;
                }
            }
        }
        assertTrue(b.len <= b.words.length);
        List<String> out = new ArrayList<>();
        b.read(new RecordBatch.Reader() {
            @Override
            public void access(int t, int cpu, long clock, int memType, int size, boolean store, long address,
                    boolean sync) {
                out.add("access " + t + " " + cpu + " " + clock + " " + memType + " " + size + " " + store + " "
                        + address + " " + sync);
            }

            @Override
            public void fetch(int t, int cpu, long clock, long address, int size) {
                out.add("fetch " + t + " " + cpu + " " + clock + " " + address + " " + size);
            }

            @Override
            public void branch(int t, int cpu, long clock, int kind, long source, long target) {
                out.add("branch " + t + " " + cpu + " " + clock + " " + kind + " " + source + " " + target);
            }

            @Override
            public void call(RecordBatch batch, int t, int cpu, long clock, int index) {
                CallEvent e = new CallEvent();
                batch.callEvent(index, e);
                out.add("call " + t + " " + cpu + " " + clock + " " + describe(e));
            }

            @Override
            public void control(RecordBatch batch, int kind, int index) {
                out.add("control " + kind + " " + System.identityHashCode(batch.objects[index]) + " "
                        + System.identityHashCode(batch.objects[index + 1]));
            }
        });
        assertEquals(in, out);
        assertEquals(in.size(), b.n);
    }

    /** A value that fits {@code bits} bits, or exactly the first that does not, or a larger one (never negative). */
    private static int field(Random r, int bits) {
        switch (r.nextInt(4)) {
            case 0: return (1 << bits) - 1;
            case 1: return 1 << bits;
            case 2: return r.nextInt(Integer.MAX_VALUE);
            default: return r.nextInt(1 << bits);
        }
    }

    private static String describe(CallEvent e) {
        return e.type + " " + e.startTime + " " + e.endTime + " " + e.arg1 + " " + e.arg2 + " " + e.arg3 + " " + e.arg4
                + " " + e.waitClocks;
    }
}
