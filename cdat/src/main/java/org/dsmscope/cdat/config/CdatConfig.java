package org.dsmscope.cdat.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import org.dsmscope.trace.InputFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.dsmscope.trace.BadInputException;

/**
 * One machine CDAT simulates (seed 000 §5.1, SPEC §6): nodes of processors with data and instruction caches, the
 * nodes' memory banks and interconnect caches, the coherence unit (line) and page sizes, the protocol variant of
 * seed 000 Table 2, the page placement policy, the trace switches and the map from replay processors to the
 * machine's processors. Read from the text format documented in {@code cdat/README.md} ("Configuration file") by
 * {@link #parse(Path)}, written back by {@link #toText()}, or made by {@link #builder()}; every way checks the same
 * ranges and refuses a bad configuration with a one-line {@link BadInputException} naming the file, the line, the
 * item, the value and what is allowed. Instances are immutable; equal configurations have equal {@link #toText()}.
 *
 * <p>Processors are numbered globally node-major: processor p of node n is {@code n * processorsPerNode + p}.
 */
public final class CdatConfig {
    /** The format line a configuration file may start with (and {@link #toText()} starts with). */
    public static final String FORMAT = "dsmscope-cdat-config 1";
    /** The name of the format, the first word of {@link #FORMAT}. */
    static final String FORMAT_NAME = "dsmscope-cdat-config";
    /** The name of a configuration made by {@link #builder()} without {@link Builder#name(String)}. */
    public static final String DEFAULT_NAME = "cdat";
    /** Largest configuration file {@link #parse(Path)} reads. */
    static final long MAX_FILE_BYTES = 1 << 20;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._+-]{1,64}");

    /** Name of the configuration (output files of a run with several configurations carry it). */
    public final String name;
    /** Number of nodes, 1..32. */
    public final int nodes;
    /** Processors per node, 1..128; nodes × processorsPerNode is at most 128. */
    public final int processorsPerNode;
    /** Memory banks per node, 1..32 (a line's bank is its line number mod banksPerNode). */
    public final int banksPerNode;
    /** Bytes per line, the coherence unit and every cache's line size: a power of two, 4..4096. */
    public final int lineSize;
    /** Bytes per page, the unit of page placement: a power of two, lineSize..1 GiB. */
    public final int pageSize;
    /** Protocol variant, 1..8 (seed 000 Table 2). */
    public final int protocol;
    /** Page placement policy. */
    public final PagePolicy pagePolicy;
    /** Whether the general trace (one file per processor) is written. */
    public final boolean generalTrace;
    /** Whether the detailed trace is written. */
    public final boolean detailedTrace;
    /** Each processor's data cache. */
    public final CacheGeometry dataCache;
    /** Each processor's instruction cache. */
    public final CacheGeometry instructionCache;
    /** Each node's interconnect cache for lines whose home is another node, or null when there is none. */
    public final CacheGeometry interconnectCache;
    /** How replay processors map to the machine's processors ({@link #processorOf(int)}). */
    public final ThreadMap threadMap;

    /** For a list thread map, the global processor of each entry; empty otherwise. */
    private final int[] listProcessors;

    private CdatConfig(Builder b, CacheGeometry data, CacheGeometry instruction, CacheGeometry interconnect) {
        name = b.name;
        nodes = (int) b.nodes;
        processorsPerNode = (int) b.processorsPerNode;
        banksPerNode = (int) b.banksPerNode;
        lineSize = (int) b.lineSize;
        pageSize = (int) b.pageSize;
        protocol = (int) b.protocol;
        pagePolicy = b.pagePolicy;
        generalTrace = b.generalTrace;
        detailedTrace = b.detailedTrace;
        dataCache = data;
        instructionCache = instruction;
        interconnectCache = interconnect;
        threadMap = b.threadMap;
        listProcessors = threadMap.slots().stream()
                .mapToInt(s -> s.node() * processorsPerNode + s.processor()).toArray();
    }

    /** Number of processors: nodes × processorsPerNode. */
    public int processors() {
        return nodes * processorsPerNode;
    }

    /**
     * The machine's processors that several of {@code replayProcessors} replay processors run on ({@link
     * #processorOf}), in processor order: each entry is the global processor followed by its replay processors in
     * increasing order. Empty when every replay processor has a processor of its own.
     */
    public java.util.List<int[]> sharedProcessors(int replayProcessors) {
        int[] count = new int[processors()];
        for (int i = 0; i < replayProcessors; i++) {
            count[processorOf(i)]++;
        }
        java.util.List<int[]> shared = new java.util.ArrayList<>();
        for (int g = 0; g < count.length; g++) {
            if (count[g] > 1) {
                int[] e = new int[1 + count[g]];
                e[0] = g;
                int k = 1;
                for (int i = 0; i < replayProcessors; i++) {
                    if (processorOf(i) == g) {
                        e[k++] = i;
                    }
                }
                shared.add(e);
            }
        }
        return shared;
    }

    /**
     * One line saying which replay processors share a processor ({@link #sharedProcessors}), naming them {@code
     * unit}s ("thread" or "replay processor"), e.g. {@code threads 0 and 4 share processor 0 (node 0)}; null if none.
     */
    public String sharingLine(int replayProcessors, String unit) {
        java.util.List<int[]> shared = sharedProcessors(replayProcessors);
        if (shared.isEmpty()) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (int[] e : shared) {
            b.append(b.length() == 0 ? "" : "; ").append(unit).append("s ");
            for (int k = 1; k < e.length; k++) {
                b.append(k == 1 ? "" : k == e.length - 1 ? " and " : ", ").append(e[k]);
            }
            b.append(" share processor ").append(e[0]).append(" (node ").append(nodeOf(e[0])).append(')');
        }
        return b.toString();
    }

    /**
     * The global processor (node-major, {@code node * processorsPerNode + processor}) that replay processor
     * {@code cpu} runs on, by {@link #threadMap}: spread puts replay processor i on node i mod nodes, processor
     * (i / nodes) mod processorsPerNode; fill puts it on global processor i mod processors(); a list puts it on
     * entry i mod (number of entries).
     *
     * @throws IllegalArgumentException when cpu is negative
     */
    public int processorOf(int cpu) {
        if (cpu < 0) {
            throw new IllegalArgumentException("replay processor " + cpu + ": negative");
        }
        return switch (threadMap.kind()) {
            case SPREAD -> (cpu % nodes) * processorsPerNode + (cpu / nodes) % processorsPerNode;
            case FILL -> cpu % processors();
            case LIST -> listProcessors[cpu % listProcessors.length];
        };
    }

    /**
     * The node of a global processor: {@code globalProcessor / processorsPerNode}.
     *
     * @throws IllegalArgumentException when the processor is not 0..processors()-1
     */
    public int nodeOf(int globalProcessor) {
        checkProcessor(globalProcessor);
        return globalProcessor / processorsPerNode;
    }

    /**
     * The number of a global processor within its node: {@code globalProcessor % processorsPerNode}.
     *
     * @throws IllegalArgumentException when the processor is not 0..processors()-1
     */
    public int processorInNode(int globalProcessor) {
        checkProcessor(globalProcessor);
        return globalProcessor % processorsPerNode;
    }

    private void checkProcessor(int g) {
        if (g < 0 || g >= processors()) {
            throw new IllegalArgumentException("processor " + g + " out of range (0.." + (processors() - 1) + ")");
        }
    }

    /**
     * Reads a configuration file. The configuration's name defaults to the file name without its last extension
     * ({@code dsm4} for {@code dsm4.cfg}; characters other than letters, digits, '.', '_', '-' and '+' become '_').
     * Error messages start with the path as given.
     *
     * @throws BadInputException when the file is missing or unreadable, is not UTF-8 text, or any line or value is
     *     wrong; the message is one line: {@code FILE:LINE: ITEM: what is wrong (what is allowed)}
     */
    public static CdatConfig parse(Path file) {
        String label = file.toString();
        InputFile.check(file, null, "CDAT configuration file", true);
        String text;
        try {
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                throw new BadInputException(label + ": " + size + " bytes: too large for a CDAT configuration file"
                        + " (at most " + MAX_FILE_BYTES + ")");
            }
            byte[] bytes = Files.readAllBytes(file);
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new BadInputException(label + ": not a CDAT configuration file (not UTF-8 text)", e);
        } catch (AccessDeniedException e) {
            throw new BadInputException(label + ": CDAT configuration file is not readable (permission denied)", e);
        } catch (NoSuchFileException e) {
            throw new BadInputException(label + ": no such CDAT configuration file", e);
        } catch (IOException e) {
            throw new BadInputException(label + ": cannot read CDAT configuration file: " + e.getMessage(), e);
        }
        if (!ConfigParser.hasItems(text)) {
            throw new BadInputException(label + ": no configuration items (an empty or comment-only file would"
                    + " silently simulate the default machine): give the items to change, e.g. 'nodes = 4', or"
                    + " 'name = default' for the default machine");
        }
        Path fileName = file.getFileName();
        return ConfigParser.parse(label, defaultName(fileName == null ? "" : fileName.toString()), text);
    }

    /**
     * Reads a configuration from text. {@code name} is the configuration's name unless the text has a
     * {@code name} item (characters other than letters, digits, '.', '_', '-' and '+' become '_'), and starts
     * every error message in place of a file name.
     *
     * @throws BadInputException as {@link #parse(Path)}
     */
    public static CdatConfig parse(String name, String text) {
        return ConfigParser.parse(name, sanitize(name), text);
    }

    /** The default name for a file name: without its last extension, sanitized; {@value #DEFAULT_NAME} if empty. */
    static String defaultName(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return sanitize(dot > 0 ? fileName.substring(0, dot) : fileName);
    }

    private static String sanitize(String s) {
        String t = s.replaceAll("[^A-Za-z0-9._+-]", "_");
        if (t.length() > 64) {
            t = t.substring(0, 64);
        }
        return t.isEmpty() ? DEFAULT_NAME : t;
    }

    /** A builder with every item at its default. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this configuration's items. */
    public Builder toBuilder() {
        return new Builder().name(name).nodes(nodes).processorsPerNode(processorsPerNode).banksPerNode(banksPerNode)
                .lineSize(lineSize).pageSize(pageSize).protocol(protocol).pagePolicy(pagePolicy)
                .generalTrace(generalTrace).detailedTrace(detailedTrace).dataCache(dataCache)
                .instructionCache(instructionCache).interconnectCache(interconnectCache).threadMap(threadMap);
    }

    /**
     * The canonical text: the {@link #FORMAT} line, then every item once, one per line, in a fixed order, with
     * sizes in the largest exact unit (4K, 32K, 1M). {@link #parse(String, String)} reads it back to an equal
     * configuration.
     */
    public String toText() {
        StringBuilder s = new StringBuilder(FORMAT).append('\n');
        for (Item item : Item.values()) {
            s.append(item.key).append(" = ").append(text(item)).append('\n');
        }
        return s.toString();
    }

    private String text(Item item) {
        return switch (item) {
            case NAME -> name;
            case NODES -> Integer.toString(nodes);
            case PROCESSORS_PER_NODE -> Integer.toString(processorsPerNode);
            case BANKS_PER_NODE -> Integer.toString(banksPerNode);
            case LINE_SIZE -> Integer.toString(lineSize);
            case PAGE_SIZE -> Sizes.format(pageSize);
            case PROTOCOL -> Integer.toString(protocol);
            case PAGE_POLICY -> pagePolicy.label();
            case THREAD_MAP -> threadMap.toText();
            case GENERAL_TRACE -> generalTrace ? "1" : "0";
            case DETAILED_TRACE -> detailedTrace ? "1" : "0";
            case DATA_CACHE -> dataCache.toText();
            case INSTRUCTION_CACHE -> instructionCache.toText();
            case INTERCONNECT_CACHE -> interconnectCache == null ? "0" : interconnectCache.toText();
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CdatConfig c && name.equals(c.name) && nodes == c.nodes
                && processorsPerNode == c.processorsPerNode && banksPerNode == c.banksPerNode
                && lineSize == c.lineSize && pageSize == c.pageSize && protocol == c.protocol
                && pagePolicy == c.pagePolicy && generalTrace == c.generalTrace && detailedTrace == c.detailedTrace
                && dataCache.equals(c.dataCache) && instructionCache.equals(c.instructionCache)
                && Objects.equals(interconnectCache, c.interconnectCache) && threadMap.equals(c.threadMap);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, nodes, processorsPerNode, banksPerNode, lineSize, pageSize, protocol, pagePolicy,
                generalTrace, detailedTrace, dataCache, instructionCache, interconnectCache, threadMap);
    }

    /** The canonical text on one line, items separated by "; ". */
    @Override
    public String toString() {
        return toText().strip().replace("\n", "; ");
    }

    /**
     * Makes a {@link CdatConfig} item by item; every item starts at its default (the defaults of the file format).
     * {@link #build()} checks exactly what {@link CdatConfig#parse(Path)} checks and throws the same messages
     * without a file and line.
     */
    public static final class Builder {
        /** What error messages start with (the file), or null for a builder made by {@link CdatConfig#builder()}. */
        String source;
        /** For each item, the line of the file that set it, or 0. */
        final int[] lines = new int[Item.values().length];
        /** For each item, the value as the file wrote it, or null. */
        final String[] raw = new String[Item.values().length];

        String name = DEFAULT_NAME;
        long nodes = 4;
        long processorsPerNode = 1;
        long banksPerNode = 4;
        long lineSize = 64;
        long pageSize = 4096;
        long protocol = 1;
        PagePolicy pagePolicy = PagePolicy.RR1;
        boolean generalTrace;
        boolean detailedTrace;
        /** Null: the default (32K 4 lru). */
        CacheSpec dataCache;
        /** Null: the default (32K 4 lru). */
        CacheSpec instructionCache;
        /** Null: none. */
        CacheSpec interconnectCache;
        ThreadMap threadMap = ThreadMap.SPREAD;
        /** For a list thread map read from a file, each entry as written; otherwise null. */
        List<String> threadMapEntries;

        Builder() {
        }

        /**
         * A cache as given: {@code associativity} 0 means full; {@code lineSize} 0 means the configuration's
         * {@code line_size} (from a file), otherwise the line size of a {@link CacheGeometry} given to the builder;
         * {@code sizeText} is the size as the file wrote it, or null.
         */
        record CacheSpec(long size, String sizeText, int associativity, Replacement replacement, int lineSize) {
            static CacheSpec of(CacheGeometry g) {
                return g == null ? null : new CacheSpec(g.size(), null, g.associativity(), g.replacement(),
                        g.lineSize());
            }
        }

        private Builder set(Item item) {
            lines[item.ordinal()] = 0;
            raw[item.ordinal()] = null;
            return this;
        }

        /** The configuration's name: 1..64 letters, digits, '.', '_', '-' or '+' (default {@code cdat}). */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return set(Item.NAME);
        }

        /** Number of nodes, 1..32 (default 4). */
        public Builder nodes(int nodes) {
            this.nodes = nodes;
            return set(Item.NODES);
        }

        /** Processors per node, 1..128, at most 128 processors in all (default 1). */
        public Builder processorsPerNode(int processorsPerNode) {
            this.processorsPerNode = processorsPerNode;
            return set(Item.PROCESSORS_PER_NODE);
        }

        /** Memory banks per node, 1..32 (default 4). */
        public Builder banksPerNode(int banksPerNode) {
            this.banksPerNode = banksPerNode;
            return set(Item.BANKS_PER_NODE);
        }

        /** Line size in bytes, a power of two 4..4096 (default 64); the default caches follow it. */
        public Builder lineSize(int lineSize) {
            this.lineSize = lineSize;
            return set(Item.LINE_SIZE);
        }

        /** Page size in bytes, a power of two from the line size to 1 GiB (default 4096). */
        public Builder pageSize(int pageSize) {
            this.pageSize = pageSize;
            return set(Item.PAGE_SIZE);
        }

        /** Protocol variant 1..8 of seed 000 Table 2 (default 1). */
        public Builder protocol(int protocol) {
            this.protocol = protocol;
            return set(Item.PROTOCOL);
        }

        /** Page placement policy (default RR1). */
        public Builder pagePolicy(PagePolicy pagePolicy) {
            this.pagePolicy = Objects.requireNonNull(pagePolicy, "pagePolicy");
            return set(Item.PAGE_POLICY);
        }

        /** Whether the general trace is written (default no). */
        public Builder generalTrace(boolean generalTrace) {
            this.generalTrace = generalTrace;
            return set(Item.GENERAL_TRACE);
        }

        /** Whether the detailed trace is written (default no). */
        public Builder detailedTrace(boolean detailedTrace) {
            this.detailedTrace = detailedTrace;
            return set(Item.DETAILED_TRACE);
        }

        /** Each processor's data cache; its line size must be the line size (default 32K, 4-way, LRU). */
        public Builder dataCache(CacheGeometry dataCache) {
            this.dataCache = CacheSpec.of(Objects.requireNonNull(dataCache, "dataCache"));
            return set(Item.DATA_CACHE);
        }

        /** Each processor's instruction cache; its line size must be the line size (default 32K, 4-way, LRU). */
        public Builder instructionCache(CacheGeometry instructionCache) {
            this.instructionCache = CacheSpec.of(Objects.requireNonNull(instructionCache, "instructionCache"));
            return set(Item.INSTRUCTION_CACHE);
        }

        /** Each node's interconnect cache, or null for none (the default); its line size must be the line size. */
        public Builder interconnectCache(CacheGeometry interconnectCache) {
            this.interconnectCache = CacheSpec.of(interconnectCache);
            return set(Item.INTERCONNECT_CACHE);
        }

        /** How replay processors map to processors (default {@link ThreadMap#SPREAD}). */
        public Builder threadMap(ThreadMap threadMap) {
            this.threadMap = Objects.requireNonNull(threadMap, "threadMap");
            threadMapEntries = null;
            return set(Item.THREAD_MAP);
        }

        /**
         * Checks every item and the items against each other and makes the configuration.
         *
         * @throws BadInputException naming the item, the value and what is allowed (from a file: the file and the
         *     line first; of several errors, the one on the earliest line)
         */
        public CdatConfig build() {
            Errors errors = new Errors();
            checkItems(errors);
            errors.throwFirst();
            CacheGeometry data = cache(errors, Item.DATA_CACHE, dataCache);
            CacheGeometry instruction = cache(errors, Item.INSTRUCTION_CACHE, instructionCache);
            CacheGeometry interconnect = interconnectCache == null ? null
                    : cache(errors, Item.INTERCONNECT_CACHE, interconnectCache);
            checkAcrossItems(errors);
            errors.throwFirst();
            return new CdatConfig(this, data, instruction, interconnect);
        }

        /** The checks of each item on its own. */
        private void checkItems(Errors errors) {
            if (!NAME.matcher(name).matches()) {
                errors.add(Item.NAME, "value '" + name + "' not allowed (" + Item.NAME.allowed + ")");
            }
            range(errors, Item.NODES, nodes, 1, 32);
            range(errors, Item.PROCESSORS_PER_NODE, processorsPerNode, 1, 128);
            range(errors, Item.BANKS_PER_NODE, banksPerNode, 1, 32);
            if (lineSize < 4 || lineSize > 4096) {
                errors.add(Item.LINE_SIZE, "value " + shown(Item.LINE_SIZE, lineSize) + " out of range ("
                        + Item.LINE_SIZE.allowed + ")");
            } else if (!Sizes.powerOfTwo(lineSize)) {
                errors.add(Item.LINE_SIZE, "value " + shown(Item.LINE_SIZE, lineSize) + " is not a power of two"
                        + " (4..4096)");
            }
            if (pageSize < 1 || pageSize > Sizes.GIB) {
                errors.add(Item.PAGE_SIZE, "value " + shown(Item.PAGE_SIZE, pageSize) + " out of range ("
                        + Item.PAGE_SIZE.allowed + ")");
            } else if (!Sizes.powerOfTwo(pageSize)) {
                errors.add(Item.PAGE_SIZE, "value " + shown(Item.PAGE_SIZE, pageSize) + " is not a power of two"
                        + " (line_size..1G)");
            }
            range(errors, Item.PROTOCOL, protocol, 1, 8);
            for (Item item : new Item[] {Item.DATA_CACHE, Item.INSTRUCTION_CACHE, Item.INTERCONNECT_CACHE}) {
                CacheSpec c = spec(item);
                if (c != null && (c.size() < 1 || c.size() > Sizes.GIB)) {
                    String allowed = item == Item.INTERCONNECT_CACHE ? "0 for none, or 1..1G" : "1..1G";
                    errors.add(item, "size " + sizeText(c) + " out of range (" + allowed + ")");
                }
            }
        }

        private void range(Errors errors, Item item, long value, long min, long max) {
            if (value < min || value > max) {
                errors.add(item, "value " + shown(item, value) + " out of range (" + min + ".." + max + ")");
            }
        }

        /** A number as the file wrote it, or as a number. */
        private String shown(Item item, long value) {
            String r = raw[item.ordinal()];
            return r != null ? r : item == Item.PAGE_SIZE ? Sizes.format(value) : Long.toString(value);
        }

        private CacheSpec spec(Item item) {
            return switch (item) {
                case DATA_CACHE -> dataCache;
                case INSTRUCTION_CACHE -> instructionCache;
                default -> interconnectCache;
            };
        }

        private static String sizeText(CacheSpec c) {
            return c.sizeText() != null ? c.sizeText() : Sizes.format(c.size());
        }

        /** The geometry of a cache (null spec: the default), or null after adding an error. */
        private CacheGeometry cache(Errors errors, Item item, CacheSpec c) {
            int line = (int) lineSize;
            if (c == null) {
                return new CacheGeometry(32 << 10, line, 4, Replacement.LRU);
            }
            long size = c.size();
            String what = item.key + ": size " + sizeText(c);
            if (c.lineSize() != 0 && c.lineSize() != line) {
                errors.add(item, "line size " + c.lineSize() + " differs from line_size " + line, Item.LINE_SIZE);
                return null;
            }
            if (c.associativity() == 0) {
                if (size < line) {
                    errors.add(what + " smaller than one line of line_size " + line, item, Item.LINE_SIZE);
                    return null;
                }
                if (size % line != 0) {
                    errors.add(what + " is not a multiple of line_size " + line, item, Item.LINE_SIZE);
                    return null;
                }
                return new CacheGeometry(size, line, (int) (size / line), c.replacement());
            }
            long way = (long) line * c.associativity();
            String shape = "line_size " + line + " x associativity " + c.associativity();
            if (size < way) {
                errors.add(what + " smaller than one line per way: " + shape + " = " + way, item, Item.LINE_SIZE);
            } else if (size % way != 0) {
                errors.add(what + " is not a multiple of " + shape + " = " + way, item, Item.LINE_SIZE);
            } else if (!Sizes.powerOfTwo(size / way)) {
                errors.add(what + " / (" + shape + ") = " + size / way + " sets: not a power of two", item,
                        Item.LINE_SIZE);
            } else {
                return new CacheGeometry(size, line, c.associativity(), c.replacement());
            }
            return null;
        }

        /** The checks of items against each other (each item is in range). */
        private void checkAcrossItems(Errors errors) {
            long processors = nodes * processorsPerNode;
            if (processors > 128) {
                errors.add("nodes " + nodes + " x processors_per_node " + processorsPerNode + " = " + processors
                        + " processors: at most 128", Item.NODES, Item.PROCESSORS_PER_NODE);
            }
            if (pageSize < lineSize) {
                errors.add("page_size " + shown(Item.PAGE_SIZE, pageSize) + " smaller than line_size "
                        + shown(Item.LINE_SIZE, lineSize), Item.PAGE_SIZE, Item.LINE_SIZE);
            }
            List<ThreadMap.Slot> slots = threadMap.slots();
            for (int i = 0; i < slots.size(); i++) {
                ThreadMap.Slot s = slots.get(i);
                String entry = threadMapEntries != null ? threadMapEntries.get(i) : s.toString();
                String head = "thread_map: value " + entry + " for replay processor " + i + ": ";
                if (s.node() >= nodes) {
                    errors.addOpen(head + "node " + entry.substring(0, entry.indexOf('.'))
                            + " out of range (0.." + (nodes - 1), ")", Item.THREAD_MAP, Item.NODES);
                    break;
                }
                if (s.processor() >= processorsPerNode) {
                    errors.addOpen(head + "processor " + entry.substring(entry.indexOf('.') + 1)
                            + " out of range (0.." + (processorsPerNode - 1), ")", Item.THREAD_MAP,
                            Item.PROCESSORS_PER_NODE);
                    break;
                }
            }
        }

        /** Errors found by build(): the one on the earliest line is thrown (from a builder: the first found). */
        private final class Errors {
            private int bestLine = Integer.MAX_VALUE;
            private String best;

            /** An error of one item: "ITEM: what". */
            void add(Item item, String what) {
                add(item.key + ": " + what, item);
            }

            /** An error of one item that involves others: "ITEM: what (OTHER on line N)". */
            void add(Item item, String what, Item other) {
                add(item.key + ": " + what, item, other);
            }

            /**
             * An error involving several items: the position is the line of the first of them the file sets, and
             * the others' lines (or that they are defaults) follow the message in parentheses.
             */
            void add(String message, Item... items) {
                addOpen(message, "", items);
            }

            /**
             * As {@link #add(String, Item...)}, but the notes about the other items go inside the parenthesis
             * that {@code message} leaves open ("... out of range (0..3" + "; nodes on line 2" + ")").
             */
            void addOpen(String message, String close, Item... items) {
                int line = 0;
                Item primary = items[0];
                for (Item i : items) {
                    if (lines[i.ordinal()] > 0) {
                        primary = i;
                        line = lines[i.ordinal()];
                        break;
                    }
                }
                List<String> notes = new ArrayList<>();
                if (source != null) {
                    for (Item i : items) {
                        if (i != primary) {
                            int l = lines[i.ordinal()];
                            notes.add(l > 0 ? i.key + " on line " + l : i.key + ": default");
                        }
                    }
                }
                String text;
                if (close.isEmpty()) {
                    text = notes.isEmpty() ? message : message + " (" + String.join(", ", notes) + ")";
                } else {
                    text = message + (notes.isEmpty() ? "" : "; " + String.join(", ", notes)) + close;
                }
                String where = source == null ? "" : line > 0 ? source + ":" + line + ": " : source + ": ";
                int order = line > 0 ? line : Integer.MAX_VALUE - 1;
                if (best == null || order < bestLine) {
                    bestLine = order;
                    best = where + text;
                }
            }

            void throwFirst() {
                if (best != null) {
                    throw new BadInputException(best);
                }
            }
        }
    }
}
