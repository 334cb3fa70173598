package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The prescan's synchronization-variable test (a range check, a page bit, then the exact set) against a plain set:
 * variables close together (the page bits in use), far apart (no page bits) and none; queries on the variables, next
 * to them and on other pages.
 */
class SyncVariablePropertyTest {

    @Provide
    Arbitrary<List<Long>> variables() {
        Arbitrary<Long> near = Arbitraries.longs().between(0x1000_0000L, 0x1010_0000L);
        Arbitrary<Long> far = Arbitraries.longs().between(0, Long.MAX_VALUE);
        return Arbitraries.oneOf(near.list().ofMaxSize(40), far.list().ofMaxSize(10),
                Arbitraries.oneOf(near, far).list().ofMaxSize(20));
    }

    @Property(tries = 300)
    void matchesAPlainSet(@ForAll("variables") List<Long> vars, @ForAll("variables") List<Long> others) {
        Prescan p = new Prescan(1, new ReplayOptions(), new Problems());
        Set<Long> want = new HashSet<>();
        for (long v : vars) {
            p.syncVars.put(v, 0);
            p.syncMin = Math.min(p.syncMin, v);
            p.syncMax = Math.max(p.syncMax, v);
            want.add(v);
        }
        p.indexSyncPages();
        for (long v : vars) {
            for (long q : new long[] {v, v - 1, v + 1, v + 4096, v - 4096, v ^ 0x800}) {
                assertEquals(want.contains(q), p.isSyncVariable(q), "address 0x" + Long.toHexString(q));
            }
        }
        for (long q : others) {
            assertEquals(want.contains(q), p.isSyncVariable(q), "address 0x" + Long.toHexString(q));
        }
    }
}
