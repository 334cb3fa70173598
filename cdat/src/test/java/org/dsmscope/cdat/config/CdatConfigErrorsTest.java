package org.dsmscope.cdat.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.Stream;
import org.dsmscope.trace.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every error message, exactly: the file, the line, the item, the value and what is allowed. */
class CdatConfigErrorsTest {

    private static final String ITEMS = "name, nodes, processors_per_node, banks_per_node, line_size, page_size,"
            + " protocol, page_policy, thread_map, general_trace, detailed_trace, data_cache, instruction_cache,"
            + " interconnect_cache";
    private static final String SIZE = "bytes with an optional K, M or G suffix";

    static Stream<Arguments> errors() {
        return Stream.of(
                // lines
                Arguments.of("# x\nnodes 4", "dsm.cfg:2: expected 'item = value'"),
                Arguments.of("= 4", "dsm.cfg:1: expected 'item = value'"),
                Arguments.of("# machine\n\n\n\n\n\nnode = 4", "dsm.cfg:7: unknown item 'node' (items: " + ITEMS + ")"),
                Arguments.of("Nodes = 4", "dsm.cfg:1: unknown item 'Nodes' (items are lower-case: 'nodes')"),
                Arguments.of("data cache = 32K 4 lru", "dsm.cfg:1: unknown item 'data cache' (items: " + ITEMS + ")"),
                Arguments.of("# c\n\n\nprotocol = 1\n\n\n\n\nprotocol = 2",
                        "dsm.cfg:9: duplicate item 'protocol' (first on line 4)"),
                Arguments.of("nodes =", "dsm.cfg:1: nodes: missing value (1..32)"),
                Arguments.of("nodes = # four", "dsm.cfg:1: nodes: missing value (1..32)"),
                // the format line
                Arguments.of("dsmscope-cdat-config 2",
                        "dsm.cfg:1: unsupported format version '2' (this version reads 'dsmscope-cdat-config 1')"),
                Arguments.of("# c\ndsmscope-cdat-config 1.1\n",
                        "dsm.cfg:2: unsupported format version '1.1' (this version reads 'dsmscope-cdat-config 1')"),
                Arguments.of("dsmscope-cdat-config",
                        "dsm.cfg:1: format line without a version (expected 'dsmscope-cdat-config 1')"),
                Arguments.of("nodes = 2\ndsmscope-cdat-config 1", "dsm.cfg:2: format line 'dsmscope-cdat-config 1'"
                        + " allowed only as the first non-comment line"),
                Arguments.of("dsmscope-cdat-config 1\ndsmscope-cdat-config 1", "dsm.cfg:2: format line"
                        + " 'dsmscope-cdat-config 1' allowed only as the first non-comment line"),
                // items on their own
                Arguments.of("name = my machine", "dsm.cfg:1: name: value 'my machine' not allowed"
                        + " (1..64 letters, digits, '.', '_', '-' or '+')"),
                Arguments.of("name = " + "x".repeat(65), "dsm.cfg:1: name: value '" + "x".repeat(65)
                        + "' not allowed (1..64 letters, digits, '.', '_', '-' or '+')"),
                Arguments.of("# c\n\nnodes = 40", "dsm.cfg:3: nodes: value 40 out of range (1..32)"),
                Arguments.of("nodes = 0", "dsm.cfg:1: nodes: value 0 out of range (1..32)"),
                Arguments.of("nodes = -1", "dsm.cfg:1: nodes: value -1 out of range (1..32)"),
                Arguments.of("nodes = 99999999999999999999999",
                        "dsm.cfg:1: nodes: value 99999999999999999999999 out of range (1..32)"),
                Arguments.of("nodes = four", "dsm.cfg:1: nodes: value 'four' is not a whole number (1..32)"),
                Arguments.of("nodes = 4K", "dsm.cfg:1: nodes: value '4K' is not a whole number (1..32)"),
                Arguments.of("processors_per_node = 0",
                        "dsm.cfg:1: processors_per_node: value 0 out of range (1..128)"),
                Arguments.of("nodes = 1\nprocessors_per_node = 129",
                        "dsm.cfg:2: processors_per_node: value 129 out of range (1..128)"),
                Arguments.of("banks_per_node = 33", "dsm.cfg:1: banks_per_node: value 33 out of range (1..32)"),
                Arguments.of("banks_per_node = 1.5",
                        "dsm.cfg:1: banks_per_node: value '1.5' is not a whole number (1..32)"),
                Arguments.of("line_size = 2", "dsm.cfg:1: line_size: value 2 out of range (a power of two, 4..4096)"),
                Arguments.of("line_size = 8K",
                        "dsm.cfg:1: line_size: value 8K out of range (a power of two, 4..4096)"),
                Arguments.of("line_size = 48", "dsm.cfg:1: line_size: value 48 is not a power of two (4..4096)"),
                Arguments.of("line_size = 64B", "dsm.cfg:1: line_size: value '64B' is not a size (" + SIZE + ")"),
                Arguments.of("page_size = 2G",
                        "dsm.cfg:1: page_size: value 2G out of range (a power of two, line_size..1G)"),
                Arguments.of("page_size = 0",
                        "dsm.cfg:1: page_size: value 0 out of range (a power of two, line_size..1G)"),
                Arguments.of("page_size = 3000",
                        "dsm.cfg:1: page_size: value 3000 is not a power of two (line_size..1G)"),
                Arguments.of("page_size = 4 KiB", "dsm.cfg:1: page_size: value '4 KiB' is not a size (" + SIZE + ")"),
                Arguments.of("protocol = 9", "dsm.cfg:1: protocol: value 9 out of range (1..8)"),
                Arguments.of("protocol = 0", "dsm.cfg:1: protocol: value 0 out of range (1..8)"),
                Arguments.of("page_policy = RR3",
                        "dsm.cfg:1: page_policy: value 'RR3' not allowed (RR1, RR2, Oracle or 1Touch)"),
                Arguments.of("page_policy = first_touch",
                        "dsm.cfg:1: page_policy: value 'first_touch' not allowed (RR1, RR2, Oracle or 1Touch)"),
                Arguments.of("general_trace = yes", "dsm.cfg:1: general_trace: value 'yes' not allowed (0 or 1)"),
                Arguments.of("detailed_trace = 2", "dsm.cfg:1: detailed_trace: value '2' not allowed (0 or 1)"),
                // cache syntax and ranges
                Arguments.of("data_cache = 32K 4", "dsm.cfg:1: data_cache: value '32K 4' is not SIZE ASSOCIATIVITY"
                        + " REPLACEMENT (e.g. 32K 4 lru)"),
                Arguments.of("data_cache = 0", "dsm.cfg:1: data_cache: value '0' is not SIZE ASSOCIATIVITY"
                        + " REPLACEMENT (e.g. 32K 4 lru)"),
                Arguments.of("interconnect_cache = 1M 8", "dsm.cfg:1: interconnect_cache: value '1M 8' is not SIZE"
                        + " ASSOCIATIVITY REPLACEMENT (e.g. 1M 8 lru, or 0 for none)"),
                Arguments.of("instruction_cache = 32KB 4 lru",
                        "dsm.cfg:1: instruction_cache: size '32KB' is not a size (" + SIZE + ")"),
                Arguments.of("data_cache = 32K 0 lru",
                        "dsm.cfg:1: data_cache: associativity '0' not allowed (a whole number from 1, or full)"),
                Arguments.of("data_cache = 32K two lru",
                        "dsm.cfg:1: data_cache: associativity 'two' not allowed (a whole number from 1, or full)"),
                Arguments.of("data_cache = 32K 4 lfu",
                        "dsm.cfg:1: data_cache: replacement 'lfu' not allowed (lru, fifo or random)"),
                Arguments.of("interconnect_cache = 0 4 lfu",
                        "dsm.cfg:1: interconnect_cache: replacement 'lfu' not allowed (lru, fifo or random)"),
                Arguments.of("data_cache = 2G 4 lru", "dsm.cfg:1: data_cache: size 2G out of range (1..1G)"),
                Arguments.of("data_cache = 0 4 lru", "dsm.cfg:1: data_cache: size 0 out of range (1..1G)"),
                Arguments.of("instruction_cache = 0 4 lru",
                        "dsm.cfg:1: instruction_cache: size 0 out of range (1..1G)"),
                Arguments.of("interconnect_cache = 2048M 4 lru",
                        "dsm.cfg:1: interconnect_cache: size 2048M out of range (0 for none, or 1..1G)"),
                // across items
                Arguments.of("# machine\nnodes = 32\nprocessors_per_node = 8", "dsm.cfg:2: nodes 32 x"
                        + " processors_per_node 8 = 256 processors: at most 128 (processors_per_node on line 3)"),
                Arguments.of("processors_per_node = 64\n", "dsm.cfg:1: nodes 4 x processors_per_node 64 = 256"
                        + " processors: at most 128 (nodes: default)"),
                Arguments.of("page_size = 32", "dsm.cfg:1: page_size 32 smaller than line_size 64 (line_size:"
                        + " default)"),
                Arguments.of("line_size = 4K\npage_size = 1K",
                        "dsm.cfg:2: page_size 1K smaller than line_size 4K (line_size on line 1)"),
                Arguments.of("page_size = 1K\nline_size = 4K",
                        "dsm.cfg:1: page_size 1K smaller than line_size 4K (line_size on line 2)"),
                Arguments.of("data_cache = 128 4 lru", "dsm.cfg:1: data_cache: size 128 smaller than one line per"
                        + " way: line_size 64 x associativity 4 = 256 (line_size: default)"),
                Arguments.of("line_size = 64\ndata_cache = 32K 3 lru", "dsm.cfg:2: data_cache: size 32K is not a"
                        + " multiple of line_size 64 x associativity 3 = 192 (line_size on line 1)"),
                Arguments.of("instruction_cache = 48K 4 lru\nline_size = 64", "dsm.cfg:1: instruction_cache: size 48K"
                        + " / (line_size 64 x associativity 4) = 192 sets: not a power of two (line_size on line 2)"),
                Arguments.of("interconnect_cache = 32 full lru", "dsm.cfg:1: interconnect_cache: size 32 smaller"
                        + " than one line of line_size 64 (line_size: default)"),
                Arguments.of("data_cache = 100 full lru",
                        "dsm.cfg:1: data_cache: size 100 is not a multiple of line_size 64 (line_size: default)"),
                Arguments.of("line_size = 128\ndata_cache = 32K 1024 lru", "dsm.cfg:2: data_cache: size 32K smaller"
                        + " than one line per way: line_size 128 x associativity 1024 = 131072 (line_size on line 1)"),
                // the thread map
                Arguments.of("thread_map = 0.0 x", "dsm.cfg:1: thread_map: value 'x' for replay processor 1 is not"
                        + " NODE.PROCESSOR (spread, fill or a list of NODE.PROCESSOR)"),
                Arguments.of("thread_map = 0,0", "dsm.cfg:1: thread_map: value '0,0' for replay processor 0 is not"
                        + " NODE.PROCESSOR (spread, fill or a list of NODE.PROCESSOR)"),
                Arguments.of("thread_map = 0.-1", "dsm.cfg:1: thread_map: value '0.-1' for replay processor 0 is"
                        + " not NODE.PROCESSOR (spread, fill or a list of NODE.PROCESSOR)"),
                Arguments.of("nodes = 4\n# map\nthread_map = 0.0 1.0 3.0 4.0", "dsm.cfg:3: thread_map: value 4.0"
                        + " for replay processor 3: node 4 out of range (0..3; nodes on line 1)"),
                Arguments.of("thread_map = 0.0 0.1", "dsm.cfg:1: thread_map: value 0.1 for replay processor 1:"
                        + " processor 1 out of range (0..0; processors_per_node: default)"),
                Arguments.of("thread_map = 0.0 99999999999.0", "dsm.cfg:1: thread_map: value 99999999999.0 for"
                        + " replay processor 1: node 99999999999 out of range (0..3; nodes: default)"),
                Arguments.of("thread_map = 00.03\nprocessors_per_node = 2", "dsm.cfg:1: thread_map: value 00.03 for"
                        + " replay processor 0: processor 03 out of range (0..1; processors_per_node on line 2)"),
                // of several errors, the one on the earliest line
                Arguments.of("protocol = 9\nnodes = 40", "dsm.cfg:1: protocol: value 9 out of range (1..8)"),
                Arguments.of("data_cache = 48K 4 lru\npage_size = 32\n",
                        "dsm.cfg:1: data_cache: size 48K / (line_size 64 x associativity 4) = 192 sets: not a"
                                + " power of two (line_size: default)"),
                Arguments.of("nodes = 0\nnodes = 40", "dsm.cfg:2: duplicate item 'nodes' (first on line 1)"));
    }

    @ParameterizedTest
    @MethodSource("errors")
    void message(String text, String expected) {
        BadInputException e = assertThrows(BadInputException.class, () -> CdatConfig.parse("dsm.cfg", text));
        assertEquals(expected, e.getMessage());
    }

    static List<Arguments> builderErrors() {
        CacheGeometry line32 = new CacheGeometry(32 << 10, 32, 4, Replacement.LRU);
        return List.of(
                Arguments.of(CdatConfig.builder().nodes(40), "nodes: value 40 out of range (1..32)"),
                Arguments.of(CdatConfig.builder().name("a/b"),
                        "name: value 'a/b' not allowed (1..64 letters, digits, '.', '_', '-' or '+')"),
                Arguments.of(CdatConfig.builder().name(""),
                        "name: value '' not allowed (1..64 letters, digits, '.', '_', '-' or '+')"),
                Arguments.of(CdatConfig.builder().processorsPerNode(0),
                        "processors_per_node: value 0 out of range (1..128)"),
                Arguments.of(CdatConfig.builder().banksPerNode(-3), "banks_per_node: value -3 out of range (1..32)"),
                Arguments.of(CdatConfig.builder().lineSize(8192),
                        "line_size: value 8192 out of range (a power of two, 4..4096)"),
                Arguments.of(CdatConfig.builder().lineSize(96), "line_size: value 96 is not a power of two (4..4096)"),
                Arguments.of(CdatConfig.builder().pageSize(3 << 10),
                        "page_size: value 3K is not a power of two (line_size..1G)"),
                Arguments.of(CdatConfig.builder().pageSize(Integer.MIN_VALUE),
                        "page_size: value -2147483648 out of range (a power of two, line_size..1G)"),
                Arguments.of(CdatConfig.builder().protocol(9), "protocol: value 9 out of range (1..8)"),
                Arguments.of(CdatConfig.builder().nodes(32).processorsPerNode(8),
                        "nodes 32 x processors_per_node 8 = 256 processors: at most 128"),
                Arguments.of(CdatConfig.builder().pageSize(32), "page_size 32 smaller than line_size 64"),
                Arguments.of(CdatConfig.builder().dataCache(line32),
                        "data_cache: line size 32 differs from line_size 64"),
                Arguments.of(CdatConfig.builder().lineSize(32).dataCache(line32).instructionCache(
                        new CacheGeometry(2L << 30, 32, 4, Replacement.LRU)),
                        "instruction_cache: size 2G out of range (1..1G)"),
                Arguments.of(CdatConfig.builder().interconnectCache(
                        new CacheGeometry(96 << 10, 64, 4, Replacement.LRU)), "interconnect_cache: size 96K"
                        + " / (line_size 64 x associativity 4) = 384 sets: not a power of two"),
                Arguments.of(CdatConfig.builder().threadMap(ThreadMap.list(new ThreadMap.Slot(4, 0))),
                        "thread_map: value 4.0 for replay processor 0: node 4 out of range (0..3)"),
                Arguments.of(CdatConfig.builder().processorsPerNode(2).threadMap(
                        ThreadMap.list(new ThreadMap.Slot(0, 1), new ThreadMap.Slot(3, 2))),
                        "thread_map: value 3.2 for replay processor 1: processor 2 out of range (0..1)"));
    }

    @ParameterizedTest
    @MethodSource("builderErrors")
    void builderMessage(CdatConfig.Builder builder, String expected) {
        BadInputException e = assertThrows(BadInputException.class, builder::build);
        assertEquals(expected, e.getMessage());
    }

    @Test
    void aLaterSetterClearsTheFilePosition() {
        // a builder from parse() is not public, but toBuilder() of a parsed configuration has no positions
        CdatConfig c = CdatConfig.parse("dsm.cfg", "nodes = 8\nprocessors_per_node = 16");
        BadInputException e = assertThrows(BadInputException.class, () -> c.toBuilder().nodes(9).build());
        assertEquals("nodes 9 x processors_per_node 16 = 144 processors: at most 128", e.getMessage());
    }

    @Test
    void partsCheckTheirArguments() {
        assertThrows(IllegalArgumentException.class, () -> new CacheGeometry(0, 64, 4, Replacement.LRU));
        assertThrows(IllegalArgumentException.class, () -> new CacheGeometry(4096, 64, 0, Replacement.LRU));
        assertThrows(NullPointerException.class, () -> new CacheGeometry(4096, 64, 1, null));
        assertThrows(IllegalArgumentException.class, () -> new ThreadMap.Slot(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> ThreadMap.list(List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> new ThreadMap(ThreadMap.Kind.SPREAD, List.of(new ThreadMap.Slot(0, 0))));
        assertThrows(NullPointerException.class, () -> CdatConfig.builder().pagePolicy(null));
    }
}
