package org.dsmscope.cdat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.cdat.config.CacheGeometry;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.cdat.config.PagePolicy;
import org.dsmscope.cdat.config.Replacement;
import org.junit.jupiter.api.Test;

/**
 * The choices of {@link CdatRouter} (SPEC §4 "Partitioning", cdat/README.md "Partitions"): an access goes to the
 * partition of each line it touches, by cache set; a thread's first reference to a page that may be placed by first
 * reference goes to every partition; so does a line-crossing access where traffic traces are written.
 */
class CdatRouterTest {
    /** 64-byte lines, 4 KiB pages, caches of 128 sets (32K 4-way): line l is in set index l mod 128. */
    private static CdatConfig cfg(PagePolicy policy, boolean traffic) {
        return CdatConfig.builder().name("r").lineSize(64).pageSize(4096).pagePolicy(policy)
                .detailedTrace(traffic).build();
    }

    private static int[] route(CdatRouter r, int thread, long address, int size) {
        int[] to = new int[64];
        int n = r.route(thread, address, size, to);
        int[] got = Arrays.copyOf(to, n);
        Arrays.sort(got);
        return got;
    }

    @Test
    void roundRobinPages_anAccessGoesToItsLinesSetsPartitionOnly() {
        CdatRouter r = new CdatRouter(List.of(cfg(PagePolicy.RR1, false)), false, 4, 2);
        // 128 sets dealt in ranges of 32: partition k has sets 32k .. 32k + 31
        assertArrayEquals(new int[] {2}, route(r, 0, 0x1000 + 64 * 5, 8)); // line 69: set 69
        assertArrayEquals(new int[] {2}, route(r, 1, 0x1000 + 64 * 5, 8)); // no broadcast for a first reference
        assertArrayEquals(new int[] {1}, route(r, 0, 64 * 63 + 63, 1)); // set 63
        assertArrayEquals(new int[] {3}, route(r, 0, 64 * 127 + 63, 1)); // set 127
        assertArrayEquals(new int[] {0}, route(r, 0, 64 * 128, 4)); // set 0 again
    }

    @Test
    void anAccessAcrossTwoLines_goesToBothPartitions_andAZeroByteAccessToItsLine() {
        CdatRouter r = new CdatRouter(List.of(cfg(PagePolicy.RR2, false)), false, 4, 1);
        assertArrayEquals(new int[] {0, 1}, route(r, 0, 64 * 32 - 4, 16)); // lines 31 and 32
        assertArrayEquals(new int[] {1}, route(r, 0, 64 * 42 - 4, 16)); // lines 41 and 42: one range
        assertArrayEquals(new int[] {2}, route(r, 0, 64 * 70, 0));
    }

    @Test
    void trafficTraces_anAccessAcrossTwoLinesGoesToEveryPartition() {
        CdatRouter r = new CdatRouter(List.of(cfg(PagePolicy.RR1, true)), false, 3, 1);
        assertArrayEquals(new int[] {0, 1, 2}, route(r, 0, 64 * 7 + 60, 8));
        assertArrayEquals(new int[] {1}, route(r, 0, 64 * 50, 8)); // set 50: 50 × 3 / 128 = 1
    }

    @Test
    void firstTouch_eachThreadsFirstReferenceToAPageGoesToEveryPartition_laterOnesToTheOwner() {
        CdatRouter r = new CdatRouter(List.of(cfg(PagePolicy.FIRST_TOUCH, false)), false, 4, 2);
        long page = 0x7000;
        assertArrayEquals(new int[] {0, 1, 2, 3}, route(r, 0, page + 64 * 3, 4));
        assertArrayEquals(new int[] {2}, route(r, 0, page + 64 * 5, 4)); // same thread, same page: its line's set
        assertArrayEquals(new int[] {0, 1, 2, 3}, route(r, 1, page + 64 * 5, 4)); // another thread's first
        assertArrayEquals(new int[] {3}, route(r, 1, page + 64 * 40, 4)); // line 488: set 104
        // a page-crossing access: new for the second page
        assertArrayEquals(new int[] {0, 1, 2, 3}, route(r, 0, page + 4096 - 2, 4));
        assertArrayEquals(new int[] {0, 3}, route(r, 0, page + 4096 - 2, 4)); // lines 511 and 512: sets 127, 0
    }

    /**
     * Where a marker may stop threads the replay may drop a thread's first access to a page, so its next one may be
     * the first reference: every access to a page placed by first reference goes to every partition; others not.
     */
    @Test
    void firstTouch_whereAccessesMayBeDropped_everyAccessToAPageGoesToEveryPartition() {
        CdatRouter r = new CdatRouter(List.of(cfg(PagePolicy.FIRST_TOUCH, false)), false, 4, 2, true);
        long page = 0x7000;
        assertArrayEquals(new int[] {0, 1, 2, 3}, route(r, 0, page + 64 * 3, 4));
        assertArrayEquals(new int[] {0, 1, 2, 3}, route(r, 0, page + 64 * 5, 4));
        assertArrayEquals(new int[] {0, 1, 2, 3}, route(r, 0, page + 64 * 3, 4));
        CdatRouter rr = new CdatRouter(List.of(cfg(PagePolicy.RR1, false)), false, 4, 2, true);
        assertArrayEquals(new int[] {2}, route(rr, 0, page + 64 * 5, 4));
    }

    @Test
    void hpux_onlyPagesOfThePrivateRangeAreFirstReferences() {
        CdatRouter r = new CdatRouter(List.of(cfg(PagePolicy.RR1, false)), true, 2, 1);
        assertArrayEquals(new int[] {1}, route(r, 0, 0x1000 + 64, 4));
        assertArrayEquals(new int[] {0, 1}, route(r, 0, 0x4000_0000L + 64, 4));
        assertArrayEquals(new int[] {0}, route(r, 0, 0x4000_0000L + 64, 4));
    }

    @Test
    void twoConfigurations_anAccessGoesToItsLinesPartitionInEach() {
        CdatConfig small = CdatConfig.builder().name("s").lineSize(64)
                .dataCache(new CacheGeometry(64 * 4, 64, 1, Replacement.LRU)).build(); // 4 sets
        CdatConfig big = CdatConfig.builder().name("b").lineSize(256).pageSize(4096).build();
        CdatRouter r = new CdatRouter(List.of(small, big), false, 4, 1);
        // address 64 * 9: line 9 of s (set index 1 of 4: partition 1), line 2 of b (set 2 of 32: partition 0)
        assertArrayEquals(new int[] {0, 1}, route(r, 0, 64 * 9, 4));
        // address 64 * 2 + 256 * 16: line 66 of s (set 2: partition 2), line 16 of b (set 16: partition 2)
        assertArrayEquals(new int[] {2}, route(r, 0, 64 * 2 + 256 * 16, 4));
    }

    /**
     * Against a reference: every partition that simulates one of the access's lines in some configuration is
     * named, each once, and nothing else where no page can be placed by first reference and no traffic is written.
     */
    @Property(tries = 200)
    void roundRobin_namesExactlyThePartitionsOfTheAccessesLines(@ForAll @IntRange(min = 1, max = 20) int parts,
            @ForAll @IntRange(min = 0, max = 1 << 20) int address, @ForAll @IntRange(min = 0, max = 300) int size,
            @ForAll @IntRange(min = 0, max = 2) int line) {
        CdatConfig c = CdatConfig.builder().name("p").lineSize(16 << line).pageSize(4096)
                .dataCache(new CacheGeometry(16L << line << 5, 16 << line, 1, Replacement.LRU)).build(); // 32 sets
        CdatRouter r = new CdatRouter(List.of(c), false, parts, 1);
        int shift = 4 + line;
        boolean[] want = new boolean[parts];
        for (long l = (long) address >>> shift; l <= (address + Math.max(size, 1) - 1L) >>> shift; l++) {
            want[(int) (l % Cdat.partitionSets(c)) * parts / Cdat.partitionSets(c)] = true;
        }
        int[] expect = java.util.stream.IntStream.range(0, parts).filter(p -> want[p]).toArray();
        assertArrayEquals(expect, route(r, 0, address, size));
    }

    /**
     * Against the same reference, accesses of 0 to 8 bytes, most within one line (the router's shortcut for one
     * configuration), with and without traffic traces: one within a line goes to its line's partition alone, one
     * across two lines to both, or with traffic traces to every partition.
     */
    @Property(tries = 300)
    void oneConfiguration_anAccessWithinALineGoesToItsPartitionAlone(
            @ForAll @IntRange(min = 1, max = 20) int parts, @ForAll @IntRange(min = 0, max = 1 << 16) int address,
            @ForAll @IntRange(min = 0, max = 8) int size, @ForAll boolean traffic) {
        CdatConfig c = cfg(PagePolicy.RR1, traffic);
        CdatRouter r = new CdatRouter(List.of(c), false, parts, 1);
        int sets = Cdat.partitionSets(c);
        long first = (long) address >>> 6;
        long last = (address + Math.max(size, 1) - 1L) >>> 6;
        boolean[] want = new boolean[parts];
        for (long l = first; l <= last; l++) {
            want[(int) (l % sets) * parts / sets] = true;
        }
        if (traffic && first != last) {
            Arrays.fill(want, true);
        }
        int[] expect = java.util.stream.IntStream.range(0, parts).filter(p -> want[p]).toArray();
        assertArrayEquals(expect, route(r, 0, address, size));
    }
}
