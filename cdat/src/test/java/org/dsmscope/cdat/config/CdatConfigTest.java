package org.dsmscope.cdat.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;
import org.dsmscope.trace.BadInputException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Defaults, every item, the thread maps, the canonical text and the example files. */
class CdatConfigTest {

    /** The example configurations, from the cdat module's directory (where surefire runs). */
    static final Path EXAMPLES = Path.of("..", "examples", "cdat");

    private static CdatConfig parse(String text) {
        return CdatConfig.parse("t.cfg", text);
    }

    @Test
    void defaults() {
        CdatConfig c = parse("");
        assertEquals("t.cfg", c.name);
        assertEquals(4, c.nodes);
        assertEquals(1, c.processorsPerNode);
        assertEquals(4, c.processors());
        assertEquals(4, c.banksPerNode);
        assertEquals(64, c.lineSize);
        assertEquals(4096, c.pageSize);
        assertEquals(1, c.protocol);
        assertEquals(PagePolicy.RR1, c.pagePolicy);
        assertFalse(c.generalTrace);
        assertFalse(c.detailedTrace);
        assertEquals(new CacheGeometry(32768, 64, 4, Replacement.LRU), c.dataCache);
        assertEquals(128, c.dataCache.sets());
        assertEquals(new CacheGeometry(32768, 64, 4, Replacement.LRU), c.instructionCache);
        assertNull(c.interconnectCache);
        assertEquals(ThreadMap.SPREAD, c.threadMap);
        assertEquals(CdatConfig.builder().name("t.cfg").build(), c);
        assertEquals(CdatConfig.DEFAULT_NAME, CdatConfig.builder().build().name);
    }

    @Test
    void canonicalTextOfTheDefaults() {
        assertEquals("""
                dsmscope-cdat-config 1
                name = cdat
                nodes = 4
                processors_per_node = 1
                banks_per_node = 4
                line_size = 64
                page_size = 4K
                protocol = 1
                page_policy = RR1
                thread_map = spread
                general_trace = 0
                detailed_trace = 0
                data_cache = 32K 4 lru
                instruction_cache = 32K 4 lru
                interconnect_cache = 0
                """, CdatConfig.builder().build().toText());
    }

    @Test
    void everyItem() {
        CdatConfig c = parse("""
                dsmscope-cdat-config 1
                # a comment line
                name = big-machine_2.v+1   # a comment after a value
                nodes = 8
                processors_per_node = 16
                banks_per_node = 32
                line_size = 128
                page_size = 2M
                protocol = 8
                page_policy = oracle
                thread_map = 7.15 0.0 3.2
                general_trace = 1
                detailed_trace = 1
                data_cache = 64K 2 fifo
                instruction_cache = 16k full RANDOM
                interconnect_cache = 1G 16 lru
                """);
        assertEquals("big-machine_2.v+1", c.name);
        assertEquals(8, c.nodes);
        assertEquals(16, c.processorsPerNode);
        assertEquals(128, c.processors());
        assertEquals(32, c.banksPerNode);
        assertEquals(128, c.lineSize);
        assertEquals(2 << 20, c.pageSize);
        assertEquals(8, c.protocol);
        assertEquals(PagePolicy.ORACLE, c.pagePolicy);
        assertEquals(ThreadMap.list(new ThreadMap.Slot(7, 15), new ThreadMap.Slot(0, 0), new ThreadMap.Slot(3, 2)),
                c.threadMap);
        assertTrue(c.generalTrace);
        assertTrue(c.detailedTrace);
        assertEquals(new CacheGeometry(64 << 10, 128, 2, Replacement.FIFO), c.dataCache);
        assertEquals(256, c.dataCache.sets());
        assertEquals(new CacheGeometry(16 << 10, 128, 128, Replacement.RANDOM), c.instructionCache);
        assertEquals(1, c.instructionCache.sets());
        assertTrue(c.instructionCache.fullyAssociative());
        assertEquals(new CacheGeometry(1L << 30, 128, 16, Replacement.LRU), c.interconnectCache);
        assertEquals(1 << 19, c.interconnectCache.sets());
        assertEquals("""
                dsmscope-cdat-config 1
                name = big-machine_2.v+1
                nodes = 8
                processors_per_node = 16
                banks_per_node = 32
                line_size = 128
                page_size = 2M
                protocol = 8
                page_policy = Oracle
                thread_map = 7.15 0.0 3.2
                general_trace = 1
                detailed_trace = 1
                data_cache = 64K 2 fifo
                instruction_cache = 16K full random
                interconnect_cache = 1G 16 lru
                """, c.toText());
        assertEquals(c, parse(c.toText()));
    }

    @Test
    void valuesOfEachItem() {
        for (PagePolicy p : PagePolicy.values()) {
            assertEquals(p, parse("page_policy = " + p.label()).pagePolicy);
            assertEquals(p, parse("page_policy = " + p.label().toUpperCase()).pagePolicy);
            assertEquals(p, PagePolicy.parse(p.label().toLowerCase()));
        }
        assertEquals(PagePolicy.FIRST_TOUCH, parse("page_policy = 1touch").pagePolicy);
        assertEquals(java.util.List.of("RR1", "RR2", "Oracle", "1Touch"),
                java.util.Arrays.stream(PagePolicy.values()).map(PagePolicy::label).toList());
        assertThrows(IllegalArgumentException.class, () -> PagePolicy.parse("RR3"));
        for (Replacement r : Replacement.values()) {
            assertEquals(r, parse("data_cache = 32K 4 " + r.label()).dataCache.replacement());
            assertEquals(r, Replacement.parse(r.name()));
        }
        for (int p = 1; p <= 8; p++) {
            assertEquals(p, parse("protocol = " + p).protocol);
        }
        assertEquals(32, parse("nodes = 32").nodes);
        assertEquals(1, parse("nodes = 1").nodes);
        assertEquals(7, parse("nodes = +007").nodes);
        assertEquals(128, parse("nodes = 1\nprocessors_per_node = 128").processors());
        assertEquals(1, parse("banks_per_node = 1").banksPerNode);
        assertEquals(4, parse("line_size = 4").lineSize);
        assertEquals(4096, parse("line_size = 4K\npage_size = 4096").lineSize);
        assertEquals(64, parse("page_size = 64").pageSize);
        assertEquals(1 << 30, parse("page_size = 1g").pageSize);
        assertEquals(1 << 30, parse("page_size = 1024M").pageSize);
        assertTrue(parse("general_trace = 1").generalTrace);
        assertFalse(parse("general_trace = 0").generalTrace);
        assertTrue(parse("detailed_trace = 1").detailedTrace);
        assertNull(parse("interconnect_cache = 0").interconnectCache);
        assertNull(parse("interconnect_cache = 0 8 lru").interconnectCache);
        assertEquals(new CacheGeometry(512 << 10, 64, 8, Replacement.LRU),
                parse("interconnect_cache = 512K 8 lru").interconnectCache);
        assertEquals(new CacheGeometry(48 << 10, 64, 3, Replacement.LRU),
                parse("data_cache = 48K 3 lru").dataCache, "associativity need not be a power of two");
        assertEquals(new CacheGeometry(64, 64, 1, Replacement.LRU), parse("data_cache = 64 full lru").dataCache);
        assertEquals(new CacheGeometry(4096, 4096, 1, Replacement.LRU),
                parse("line_size = 4096\ninstruction_cache = 4K 1 lru").instructionCache);
        assertEquals(ThreadMap.FILL, parse("thread_map = FILL").threadMap);
        assertEquals(ThreadMap.SPREAD, parse("thread_map = spread").threadMap);
        assertEquals("x", parse("name = x").name);
    }

    @Test
    void cachesFollowTheLineSize() {
        CdatConfig c = parse("line_size = 256\ndata_cache = 64K 2 lru");
        assertEquals(new CacheGeometry(64 << 10, 256, 2, Replacement.LRU), c.dataCache);
        assertEquals(new CacheGeometry(32 << 10, 256, 4, Replacement.LRU), c.instructionCache);
        assertEquals(32, c.instructionCache.sets());
        assertEquals(new CacheGeometry(32 << 10, 4096, 4, Replacement.LRU),
                CdatConfig.builder().lineSize(4096).build().dataCache);
    }

    @Test
    void layout() {
        CdatConfig c = parse("""
                dsmscope-cdat-config 1\r
                \tnodes=2   \r
                \r
                  processors_per_node   =   3# no space before the comment
                """);
        assertEquals(2, c.nodes);
        assertEquals(3, c.processorsPerNode);
        assertEquals(4, parse("\uFEFF# byte order mark\nnodes = 4").nodes);
        assertEquals(5, parse("# format line after comments only\n\ndsmscope-cdat-config 1\nprotocol = 5").protocol);
        assertEquals(6, parse("protocol = 6").protocol, "the format line is optional");
        assertEquals(2, parse("nodes = 2\r# old Mac line ends\rbanks_per_node = 2").banksPerNode);
    }

    @Test
    void spreadMap() {
        CdatConfig c = parse("nodes = 4\nprocessors_per_node = 2");
        int[] expected = {0, 2, 4, 6, 1, 3, 5, 7, 0, 2};
        assertArrayEquals(expected, IntStream.range(0, 10).map(c::processorOf).toArray());
        for (int i = 0; i < 12; i++) {
            assertEquals(i % 4, c.nodeOf(c.processorOf(i)));
            assertEquals((i / 4) % 2, c.processorInNode(c.processorOf(i)));
        }
        CdatConfig one = parse("nodes = 3");
        assertArrayEquals(new int[] {0, 1, 2, 0, 1}, IntStream.range(0, 5).map(one::processorOf).toArray());
    }

    @Test
    void fillMap() {
        CdatConfig c = parse("nodes = 2\nprocessors_per_node = 3\nthread_map = fill");
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 0, 1},
                IntStream.range(0, 8).map(c::processorOf).toArray());
        assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1}, IntStream.range(0, 6).map(c::nodeOf).toArray());
        assertArrayEquals(new int[] {0, 1, 2, 0, 1, 2}, IntStream.range(0, 6).map(c::processorInNode).toArray());
    }

    @Test
    void listMap() {
        CdatConfig c = parse("nodes = 3\nprocessors_per_node = 2\nthread_map = 2.1 0.0 1.1");
        // entry i: node * 2 + processor; beyond the list, entry i mod 3
        assertArrayEquals(new int[] {5, 0, 3, 5, 0, 3, 5},
                IntStream.range(0, 7).map(c::processorOf).toArray());
        assertEquals(2, c.nodeOf(c.processorOf(0)));
        assertEquals(1, c.processorInNode(c.processorOf(0)));
        CdatConfig same = parse("nodes = 3\nprocessors_per_node = 2\nthread_map = 0.0 0.0");
        assertEquals(0, same.processorOf(1), "several replay processors may share a processor");
    }

    @Test
    void processorArgumentsAreChecked() {
        CdatConfig c = parse("nodes = 2\nprocessors_per_node = 2");
        assertThrows(IllegalArgumentException.class, () -> c.processorOf(-1));
        assertThrows(IllegalArgumentException.class, () -> c.nodeOf(4));
        assertThrows(IllegalArgumentException.class, () -> c.nodeOf(-1));
        assertThrows(IllegalArgumentException.class, () -> c.processorInNode(4));
        assertEquals(1, c.nodeOf(3));
    }

    @Test
    void builderSetsEveryItem() {
        CdatConfig c = CdatConfig.builder().name("b").nodes(2).processorsPerNode(2).banksPerNode(8).lineSize(32)
                .pageSize(8192).protocol(5).pagePolicy(PagePolicy.FIRST_TOUCH).generalTrace(true)
                .detailedTrace(true).dataCache(new CacheGeometry(16 << 10, 32, 2, Replacement.FIFO))
                .instructionCache(new CacheGeometry(8 << 10, 32, 256, Replacement.RANDOM))
                .interconnectCache(new CacheGeometry(1 << 20, 32, 8, Replacement.LRU))
                .threadMap(ThreadMap.list(new ThreadMap.Slot(1, 1))).build();
        CdatConfig p = parse("""
                name = b
                nodes = 2
                processors_per_node = 2
                banks_per_node = 8
                line_size = 32
                page_size = 8K
                protocol = 5
                page_policy = 1Touch
                general_trace = 1
                detailed_trace = 1
                data_cache = 16K 2 fifo
                instruction_cache = 8K full random
                interconnect_cache = 1M 8 lru
                thread_map = 1.1
                """);
        assertEquals(p, c);
        assertEquals(p.hashCode(), c.hashCode());
        assertEquals(p.toText(), c.toText());
        assertEquals(c, c.toBuilder().build());
        assertNotEquals(c, c.toBuilder().protocol(6).build());
        assertNotEquals(c, c.toBuilder().interconnectCache(null).build());
        assertEquals(3, c.processorOf(0));
    }

    @Test
    void fileNamesAndDefaultNames(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("dsm4.cfg");
        Files.writeString(f, "nodes = 2\n");
        CdatConfig c = CdatConfig.parse(f);
        assertEquals("dsm4", c.name);
        assertEquals(2, c.nodes);
        Files.writeString(f, "name = other\n");
        assertEquals("other", CdatConfig.parse(f).name);
        assertEquals("a.b", CdatConfig.defaultName("a.b.cfg"));
        assertEquals("plain", CdatConfig.defaultName("plain"));
        assertEquals(".cfg", CdatConfig.defaultName(".cfg"));
        assertEquals("my_machine__1_", CdatConfig.defaultName("my machine (1).cfg"));
        assertEquals("cdat", CdatConfig.defaultName(""));
        assertEquals("my_machine", CdatConfig.parse("my machine", "").name);
    }

    @Test
    void fileErrors(@TempDir Path dir) throws IOException {
        Path missing = dir.resolve("none.cfg");
        assertEquals(missing + ": no such CDAT configuration file",
                assertThrows(BadInputException.class, () -> CdatConfig.parse(missing)).getMessage());
        assertEquals(dir + ": is a directory, not a CDAT configuration file",
                assertThrows(BadInputException.class, () -> CdatConfig.parse(dir)).getMessage());
        Path binary = dir.resolve("bin.cfg");
        Files.write(binary, new byte[] {'n', '=', (byte) 0xff, (byte) 0xfe, 0});
        assertEquals(binary + ": not a CDAT configuration file (not UTF-8 text)",
                assertThrows(BadInputException.class, () -> CdatConfig.parse(binary)).getMessage());
        Path big = dir.resolve("big.cfg");
        Files.write(big, new byte[(1 << 20) + 1]);
        assertEquals(big + ": 1048577 bytes: too large for a CDAT configuration file (at most 1048576)",
                assertThrows(BadInputException.class, () -> CdatConfig.parse(big)).getMessage());
        Path bad = dir.resolve("dsm.cfg");
        Files.writeString(bad, "# x\n\nnodes = 40\n", StandardCharsets.UTF_8);
        assertEquals(bad + ":3: nodes: value 40 out of range (1..32)",
                assertThrows(BadInputException.class, () -> CdatConfig.parse(bad)).getMessage());
    }

    @Test
    void exampleDsm4() {
        CdatConfig c = CdatConfig.parse(EXAMPLES.resolve("dsm4.cfg"));
        assertEquals(CdatConfig.builder().name("dsm4").build(), c, "dsm4.cfg writes out the defaults");
        assertEquals(4, c.nodes);
        assertEquals(1, c.processorsPerNode);
        assertEquals(4, c.banksPerNode);
        assertEquals(64, c.lineSize);
        assertEquals(4096, c.pageSize);
        assertEquals(1, c.protocol);
        assertEquals(PagePolicy.RR1, c.pagePolicy);
        assertEquals(new CacheGeometry(32 << 10, 64, 4, Replacement.LRU), c.dataCache);
        assertEquals(new CacheGeometry(32 << 10, 64, 4, Replacement.LRU), c.instructionCache);
        assertFalse(c.generalTrace || c.detailedTrace);
    }

    @Test
    void exampleNuma2x2() {
        CdatConfig c = CdatConfig.parse(EXAMPLES.resolve("numa2x2.cfg"));
        assertEquals("numa2x2", c.name);
        assertEquals(2, c.nodes);
        assertEquals(2, c.processorsPerNode);
        assertEquals(5, c.protocol);
        assertEquals(PagePolicy.FIRST_TOUCH, c.pagePolicy);
        assertTrue(c.generalTrace && c.detailedTrace);
        assertEquals(ThreadMap.FILL, c.threadMap);
        assertEquals(new CacheGeometry(1 << 20, 64, 8, Replacement.LRU), c.interconnectCache);
        assertArrayEquals(new int[] {0, 1, 2, 3}, IntStream.range(0, 4).map(c::processorOf).toArray());
    }

    /** The first fenced block after {@code marker} in cdat/README.md. */
    private static String readmeBlock(String marker) throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        int at = readme.indexOf(marker);
        assertTrue(at >= 0, marker);
        int open = readme.indexOf("```\n", at) + 4;
        return readme.substring(open, readme.indexOf("```\n", open));
    }

    @Test
    void readmeExamples() throws IOException {
        assertEquals(CdatConfig.builder().build().toText(), readmeBlock("The defaults in canonical form:"));
        CdatConfig c = CdatConfig.parse("README.md", readmeBlock("**A complete example**"));
        assertEquals("numa8x2", c.name);
        assertEquals(16, c.processors());
        assertEquals(8, c.banksPerNode);
        assertEquals(128, c.lineSize);
        assertEquals(8192, c.pageSize);
        assertEquals(6, c.protocol);
        assertEquals(PagePolicy.ORACLE, c.pagePolicy);
        assertEquals(1, c.nodeOf(c.processorOf(1)));
        assertEquals(1, c.processorInNode(c.processorOf(4)));
        assertEquals(c.processorOf(0), c.processorOf(8));
        assertFalse(c.generalTrace);
        assertTrue(c.detailedTrace);
        assertEquals(128, c.dataCache.sets());
        assertEquals(new CacheGeometry(32 << 10, 128, 256, Replacement.FIFO), c.instructionCache);
        assertEquals(new CacheGeometry(4 << 20, 128, 16, Replacement.RANDOM), c.interconnectCache);
    }

    @Test
    void sizes() {
        assertEquals(4096, Sizes.parse("4K"));
        assertEquals(4096, Sizes.parse("4k"));
        assertEquals(3L << 20, Sizes.parse("3M"));
        assertEquals(1L << 30, Sizes.parse("1G"));
        assertEquals(100, Sizes.parse("0100"));
        assertEquals(-1, Sizes.parse("K"));
        assertEquals(-1, Sizes.parse("4KB"));
        assertEquals(-1, Sizes.parse("-4"));
        assertEquals(-1, Sizes.parse("1.5K"));
        assertEquals(Long.MAX_VALUE, Sizes.parse("99999999999999G"));
        assertEquals(Long.MAX_VALUE, Sizes.parse("99999999999999999999999"));
        assertEquals("4K", Sizes.format(4096));
        assertEquals("1G", Sizes.format(1L << 30));
        assertEquals("1536K", Sizes.format(1536 << 10));
        assertEquals("100", Sizes.format(100));
        assertEquals("0", Sizes.format(0));
    }

    @Test
    void fiveThreadsOnFourOneProcessorNodes_threads0And4ShareProcessor0() {
        CdatConfig c = CdatConfig.builder().nodes(4).processorsPerNode(1).build();
        List<int[]> shared = c.sharedProcessors(5);
        assertEquals(1, shared.size());
        assertArrayEquals(new int[] {0, 0, 4}, shared.get(0));
        assertEquals("threads 0 and 4 share processor 0 (node 0)", c.sharingLine(5, "thread"));
        assertEquals(null, c.sharingLine(4, "thread"), "one thread per processor");
        assertEquals("threads 0, 4 and 8 share processor 0 (node 0); threads 1 and 5 share processor 1 (node 1)",
                c.sharingLine(9, "thread").substring(0, 89));
    }
}
