package org.dsmscope.cdat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.dsmscope.cdat.config.CacheGeometry;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.cdat.config.Replacement;
import org.dsmscope.cdat.config.ThreadMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * SPEC §6's fixed points of the protocol and the transaction sequences of the module README's table, read back from
 * the detailed trace (Appendix C's record formats) with the coherence checker on.
 */
class ProtocolTest {
    @TempDir
    Path dir;

    /** {@code nodes} nodes of {@code ppn} processors, 64-byte lines, 4 KiB pages (RR1: page p at node p mod nodes),
     * one bank, replay processor i on global processor i, detailed and general traces on. */
    static CdatConfig.Builder machine(int nodes, int ppn, int protocol) {
        return CdatConfig.builder().nodes(nodes).processorsPerNode(ppn).banksPerNode(1).lineSize(64).pageSize(4096)
                .protocol(protocol).threadMap(ThreadMap.FILL).detailedTrace(true).generalTrace(true);
    }

    private static boolean remoteExclusive(int v) {
        return v == 1 || v == 4 || v == 5 || v == 6;
    }

    private static boolean direct(int v) {
        return v == 1 || v == 5 || v == 7 || v == 8;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void loadMissOnIdleRemoteLine(int v) {
        Sim s = new Sim(machine(2, 1, v).build(), 2, dir);
        s.load(0, 100, 4096 + 8); // page 1: home node 1
        CdatResult r = s.end();
        String answer = remoteExclusive(v) ? "12" : "11";
        assertEquals(List.of("100 4096 2 0 0 0 1", "100 4096 " + answer + " 0 1 0 0"), s.detailed());
        assertEquals(1, r.aggregate.streams[Counters.DATA][Counters.REMOTE_MEMORY]);
        assertEquals(2.0, r.aggregate.averageLatency());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void loadMissOnIdleLocalLineIsExclusiveInEveryVariant(int v) {
        Sim s = new Sim(machine(2, 1, v).build(), 2, dir);
        s.load(0, 5, 64).store(0, 6, 64); // page 0: home node 0; the store hits the exclusive line silently
        s.end();
        assertEquals(List.of("5 64 2 0 0 0 0", "5 64 12 0 0 0 0"), s.detailed());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void storeHitOnLineSharedByTwoOthers(int v) {
        Sim s = new Sim(machine(3, 1, v).build(), 3, dir);
        s.load(1, 1, 128).load(2, 2, 128).load(0, 3, 128); // page 0, home node 0
        int before = 0;
        s.store(0, 10, 128);
        CdatResult r = s.end();
        List<String> d = s.detailed();
        List<String> tail = d.subList(d.size() - 6, d.size());
        assertEquals(List.of("10 128 4 0 0 0 0", "10 128 34 0 0 0 1", "10 128 53 0 1 0 0", "10 128 34 0 0 0 2",
                "10 128 53 0 2 0 0", "10 128 13 0 0 0 0"), tail);
        assertEquals(1, r.aggregate.transactions[4] - before);
        assertEquals(1, r.aggregate.streams[Counters.DATA][Counters.HIT]);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void loadMissOnLineDirtyInAnotherNode(int v) {
        Sim s = new Sim(machine(2, 1, v).build(), 2, dir);
        s.store(1, 1, 64); // page 0, home node 0; dirty at processor 1 (node 1)
        s.load(0, 7, 64);
        CdatResult r = s.end();
        List<String> d = s.detailed();
        List<String> tail = d.subList(2, d.size());
        if (direct(v)) {
            assertEquals(List.of("7 64 2 0 0 0 0", "7 64 32 0 0 0 1", "7 64 41 0 1 0 0", "7 64 51 0 1 0 0"), tail);
        } else {
            assertEquals(List.of("7 64 2 0 0 0 0", "7 64 32 0 0 0 1", "7 64 56 0 1 0 0", "7 64 11 0 0 0 0"), tail);
        }
        // two requests: the store miss (2) and the load (3 with direct transactions, 4 without)
        assertEquals((2 + (direct(v) ? 3 : 4)) / 2.0, r.aggregate.averageLatency());
        assertEquals(1, r.aggregate.streams[Counters.DATA][Counters.REMOTE_CACHE]);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void storeMissOnLineDirtyInAnotherNode(int v) {
        Sim s = new Sim(machine(2, 1, v).build(), 2, dir);
        s.store(1, 1, 64).store(0, 7, 64);
        s.end();
        List<String> d = s.detailed();
        List<String> tail = d.subList(2, d.size());
        if (direct(v)) {
            assertEquals(List.of("7 64 3 0 0 0 0", "7 64 33 0 0 0 1", "7 64 43 0 1 0 0", "7 64 52 0 1 0 0"), tail);
        } else {
            assertEquals(List.of("7 64 3 0 0 0 0", "7 64 33 0 0 0 1", "7 64 56 0 1 0 0", "7 64 12 0 0 0 0"), tail);
        }
    }

    @Test
    void snoopInTheNodeAnswersWithUpdateData() {
        Sim s = new Sim(machine(2, 2, 1).build(), 4, dir);
        s.store(1, 1, 4096); // processor 1 of node 0; page 1: home node 1
        s.load(0, 2, 4096);
        CdatResult r = s.end();
        assertEquals(List.of("1 4096 3 1 0 0 1", "1 4096 12 0 1 1 0", "2 4096 2 0 0 0 1", "2 4096 22 1 0 0 1"),
                s.detailed());
        assertEquals(1, r.aggregate.streams[Counters.DATA][Counters.LOCAL_CACHE]);
        assertEquals(1, r.aggregate.streams[Counters.DATA][Counters.MISS_LOCAL]);
    }

    @Test
    void replacedDirtyLineIsWrittenBack() {
        CacheGeometry direct = new CacheGeometry(64, 64, 1, Replacement.LRU);
        Sim s = new Sim(machine(1, 1, 1).dataCache(direct).build(), 1, dir);
        s.store(0, 1, 0).load(0, 2, 64);
        CdatResult r = s.end();
        assertEquals(List.of("1 0 3 0 0 0 0", "1 0 12 0 0 0 0", "2 0 21 0 0 0 0", "2 64 2 0 0 0 0",
                "2 64 12 0 0 0 0"), s.detailed());
        assertEquals(2, r.aggregate.requests);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void exclusiveReplacementIsAnnouncedOnlyWhereTheVariantSaysSo(int v) {
        CacheGeometry direct = new CacheGeometry(64, 64, 1, Replacement.LRU);
        Sim s = new Sim(machine(1, 1, v).dataCache(direct).build(), 1, dir);
        s.load(0, 1, 0).load(0, 2, 64); // exclusive (local home), then replaced
        CdatResult r = s.end();
        boolean announced = v == 1 || v == 2 || v == 6 || v == 8;
        assertEquals(announced ? 1 : 0, r.aggregate.transactions[23]);
        assertTrue(s.detailed().contains("2 0 23 0 0 0 0") == announced);
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 5, 7})
    void unannouncedReplacementIsNackedOnRecall(int v) {
        CacheGeometry direct = new CacheGeometry(64, 64, 1, Replacement.LRU);
        Sim s = new Sim(machine(2, 1, v).dataCache(direct).build(), 2, dir);
        s.load(0, 1, 0).load(0, 2, 64); // exclusive at processor 0, dropped silently
        s.load(1, 3, 0);
        s.end();
        List<String> d = s.detailed();
        assertEquals(List.of("3 0 2 0 1 0 0", "3 0 32 0 0 0 0", "3 0 55 0 0 0 0", "3 0 11 0 0 0 1"),
                d.subList(d.size() - 4, d.size()));
    }

    @Test
    void instructionMissReadsShared() {
        Sim s = new Sim(machine(2, 1, 1).build(), 2, dir);
        s.fetch(0, 0, 4096).fetch(0, 1, 4100).fetch(1, 2, 4096);
        CdatResult r = s.end();
        assertEquals(List.of("0 4096 1 0 0 0 1", "0 4096 11 0 1 0 0", "2 4096 1 0 1 0 1", "2 4096 11 0 1 0 1"),
                s.detailed());
        long[] i = r.aggregate.streams[Counters.INSTRUCTION];
        assertEquals(1, i[Counters.HIT]);
        assertEquals(2, i[Counters.MISS]);
        assertEquals(1, i[Counters.LOCAL_MEMORY]);
        assertEquals(1, i[Counters.REMOTE_MEMORY]);
    }

    @Test
    void generalTraceRecordsRequestsWithStatusAndSharingListBefore() {
        Sim s = new Sim(machine(2, 1, 2).build(), 2, dir);
        s.store(1, 1, 64).load(0, 7, 64);
        s.end();
        assertEquals(List.of("7 64 2 0 0 0 0 4 0 1 -1"), s.general("0"));
        assertEquals(List.of("1 64 3 0 1 0 0 1 0 0 -1"), s.general("1"));
    }

    @Test
    void interconnectCacheAnswersTheNodesSecondMissAndIsInvalidatedLikeASharer() {
        CacheGeometry icg = new CacheGeometry(4096, 64, 4, Replacement.LRU);
        Sim s = new Sim(machine(2, 2, 2).interconnectCache(icg).build(), 4, dir);
        s.load(0, 1, 4096); // processor 0 of node 0; page 1 at node 1: remote, loaded shared, kept in node 0's IC
        s.load(1, 2, 4096); // processor 1 of node 0: the IC answers, nothing on the interconnect
        s.store(2, 3, 4096); // processor 0 of node 1 (home): the IC is listed, so it is invalidated
        s.load(1, 4, 4096); // node 0 again: its IC and processor 1 lost the line; recalled from the owner
        CdatResult r = s.end();
        assertEquals(List.of("1 4096 2 0 0 0 1", "1 4096 11 0 1 0 0",
                "3 4096 3 0 1 0 1", "3 4096 34 0 1 0 0", "3 4096 53 0 0 0 1", "3 4096 34 0 1 2 0",
                "3 4096 53 2 0 0 1", "3 4096 12 0 1 0 1",
                "4 4096 2 1 0 0 1", "4 4096 32 0 1 0 1", "4 4096 56 0 1 0 1", "4 4096 11 0 1 1 0"), s.detailed());
        assertEquals(1, r.aggregate.interconnectHits);
        assertEquals(1, r.aggregate.streams[Counters.DATA][Counters.LOCAL_CACHE]);
    }

    @Test
    void waitsBecomeStatusRecordsInTheGeneralTrace() {
        Sim s = new Sim(machine(2, 1, 1).build(), 2, dir);
        s.load(1, 5, 64);
        s.cdat.waited(1, 1, 6, 40, org.dsmscope.replay.Analysis.WAIT_CONTENTION);
        s.load(1, 41, 128);
        s.end();
        assertEquals(List.of("5 64 2 0 1 0 0 1 0 0 -1", "6 0 92 0 1 0 0 0 0 0 -1", "40 0 91 0 1 0 0 0 0 0 -1",
                "41 128 2 0 1 0 0 1 0 0 -1"), s.general("1"));
    }

    @Test
    void anInstructionAcrossALineBoundaryIsOneAccessPerLine() {
        Sim s = new Sim(machine(1, 1, 1).build(), 1, dir);
        s.cdat.fetch(0, 0, 1, 60, 8); // bytes 60..67: lines 0 and 1
        s.cdat.fetch(0, 0, 2, 60, 8); // both hit now
        long[] i = s.end().aggregate.streams[Counters.INSTRUCTION];
        assertEquals(2, i[Counters.MISS]);
        assertEquals(2, i[Counters.HIT]);
    }
}
