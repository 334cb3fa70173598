package org.dsmscope.cdat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.cdat.config.CacheGeometry;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.cdat.config.PagePolicy;
import org.dsmscope.cdat.config.Replacement;
import org.dsmscope.cdat.config.ThreadMap;
import org.junit.jupiter.api.Test;

/**
 * Random multi-processor workloads on random machines, every variant and page policy, with the coherence checker on
 * at every access and over the whole machine at the end; and a one-processor run against a plain LRU cache built
 * from a {@link LinkedHashMap} per set.
 */
class MachinePropertyTest {

    @Property(tries = 120)
    void everyVariantStaysCoherent(@ForAll @IntRange(min = 1, max = 8) int variant,
            @ForAll @IntRange(min = 1, max = 4) int nodes, @ForAll @IntRange(min = 1, max = 3) int ppn,
            @ForAll @IntRange(min = 0, max = 2) int policy, @ForAll @IntRange(min = 0, max = 2) int repl,
            @ForAll boolean interconnect, @ForAll long seed) {
        PagePolicy pp = new PagePolicy[] {PagePolicy.RR1, PagePolicy.FIRST_TOUCH, PagePolicy.RR1}[policy];
        Replacement r = Replacement.values()[repl];
        CdatConfig cfg = CdatConfig.builder().nodes(nodes).processorsPerNode(ppn).banksPerNode(2).lineSize(32)
                .pageSize(256).protocol(variant).pagePolicy(pp).threadMap(ThreadMap.FILL)
                .dataCache(new CacheGeometry(256, 32, 2, r)).instructionCache(new CacheGeometry(128, 32, 1, r))
                .interconnectCache(interconnect ? new CacheGeometry(512, 32, 2, r) : null).build();
        int cpus = nodes * ppn;
        Sim s = new Sim(cfg, cpus, 0, null, true);
        SplittableRandom rnd = new SplittableRandom(seed);
        long clock = 0;
        for (int i = 0; i < 3000; i++) {
            int cpu = rnd.nextInt(cpus);
            long a = rnd.nextInt(policy == 2 ? 64 : 2048) & ~3L;
            int op = rnd.nextInt(10);
            if (op < 5) {
                s.load(cpu, clock++, a);
            } else if (op < 9) {
                s.store(cpu, clock++, a);
            } else {
                s.fetch(cpu, clock++, 0x10000 + a);
            }
            if (i % 500 == 0) {
                s.cdat.verify();
            }
        }
        CdatResult res = s.end();
        Counters c = res.aggregate;
        for (int st = 0; st < 3; st++) {
            long[] f = c.streams[st];
            assertEquals(f[Counters.MISS_LOCAL] + f[Counters.MISS_REMOTE], st == Counters.IO ? f[Counters.MISS]
                    : f[Counters.MISS], "every miss is satisfied somewhere");
            assertEquals(f[Counters.MISS_LOCAL], f[Counters.LOCAL_MEMORY] + f[Counters.LOCAL_CACHE]);
            assertEquals(f[Counters.MISS_REMOTE], f[Counters.REMOTE_MEMORY] + f[Counters.REMOTE_CACHE]);
        }
        Protocol p = new Protocol(variant);
        long c2c = c.transactions[41] + c.transactions[42] + c.transactions[43];
        assertTrue(p.direct || c2c == 0, "c2c only with direct transactions");
        assertTrue(p.announceExclusive || c.transactions[23] == 0, "update_tag only where announced");
        if (nodes == 1) {
            assertEquals(0, c.streams[Counters.DATA][Counters.MISS_REMOTE]);
        }
        long requests = 0;
        for (int code = 1; code <= 6; code++) {
            requests += c.transactions[code];
        }
        assertEquals(requests, c.requests);
    }

    @Property(tries = 60)
    void oneProcessorMatchesAPlainLruCache(@ForAll @IntRange(min = 0, max = 3) int waysLog,
            @ForAll @IntRange(min = 0, max = 3) int setsLog, @ForAll long seed) {
        int ways = 1 << waysLog;
        int sets = 1 << setsLog;
        CdatConfig cfg = CdatConfig.builder().nodes(1).processorsPerNode(1).lineSize(16).pageSize(4096)
                .dataCache(new CacheGeometry((long) ways * sets * 16, 16, ways, Replacement.LRU)).build();
        Sim s = new Sim(cfg, 1, 0, null, true);
        List<Map<Long, Boolean>> ref = new ArrayList<>();
        for (int i = 0; i < sets; i++) {
            ref.add(new LinkedHashMap<>(16, 0.75f, true));
        }
        long hits = 0;
        long misses = 0;
        long writeBacks = 0;
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < 4000; i++) {
            long a = rnd.nextInt(64 * 16);
            boolean store = rnd.nextBoolean();
            long ln = a >>> 4;
            Map<Long, Boolean> set = ref.get((int) (ln % sets));
            Boolean dirty = set.get(ln);
            if (dirty != null) {
                hits++;
                set.put(ln, dirty || store);
            } else {
                misses++;
                if (set.size() == ways) {
                    Long victim = set.keySet().iterator().next();
                    if (set.remove(victim)) {
                        writeBacks++;
                    }
                }
                set.put(ln, store);
            }
            if (store) {
                s.store(0, i, a & ~3L);
            } else {
                s.load(0, i, a & ~3L);
            }
        }
        Counters c = s.end().aggregate;
        assertEquals(hits, c.streams[Counters.DATA][Counters.HIT]);
        assertEquals(misses, c.streams[Counters.DATA][Counters.MISS]);
        assertEquals(writeBacks, c.transactions[21]);
    }

    @Test
    void theCheckerCatchesAStaleCopy() {
        CdatConfig cfg = ProtocolTest.machine(2, 1, 1).detailedTrace(false).generalTrace(false).build();
        Sim s = new Sim(cfg, 2, 0, null, true);
        s.load(0, 1, 64).load(1, 2, 64);
        Machine m = s.cdat.machine();
        m.latest[m.entry(64 >>> 6, 0)]++; // a store nobody was told of
        assertThrows(IllegalStateException.class, () -> s.cdat.verify());
        assertThrows(IllegalStateException.class, () -> s.load(0, 3, 64));
    }
}
