package org.dsmscope.replay;

import java.io.IOException;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.SmaitFormat;
import org.dsmscope.trace.TraceReader;

/**
 * Offline routing of one thread trace (SPEC §4 "Partitioning", replay/README.md "Partitioned replay"): reads the
 * trace once and writes one routed stream per partition ({@link RoutedWriter}), the format a routed partition's
 * reader takes ({@code TraceReader.Options.routedGaps}): SMAIT words with the extended header, every call record,
 * the data accesses {@link Replay.Router} gives the partition, and for each run of accesses it does not need one
 * gap record ({@link org.dsmscope.trace.RoutedWords}: one word) with their count and bytes (where a marker may stop
 * or resume all threads, or no prescan says none does, a gap ends where the access size changes, so that an engine
 * can tell the bytes of any piece of it), or, for a run of at
 * most {@link Replay.Router#fill()} accesses of one page each, the accesses themselves. A thread with branch, procedure or fetch records ({@link
 * RouteCheck#stream}: its instruction stream decides clocks and fetches) goes whole to every partition. Before every
 * call record, the first record after one, and the end, a position record gives its byte offset in the trace file,
 * so that a partition's messages name the positions a serial run names. The router of a routed run ({@code
 * RecordRouter}) routes each file with one of these into the partitions' pipes, as blocks of words with run records
 * before the runs of checked words; offline, the streams are written as bytes where the caller says (a Spark map
 * task's shuffle blocks) and read back later by
 * {@link Replay#runPartition(Replay.Plan, int, Analysis, java.util.function.IntFunction)}, in another process.
 * The caller drives it a step at a time ({@link #step}), so that what it writes can be shipped as it comes.
 * Nothing is allocated per record.
 */
public final class RouteSplitter implements AutoCloseable {
    /** Records routed per {@link #step}. */
    static final int STEP = 4096;

    private final Replay.Router route;
    /** Every record of the trace goes to every partition ({@link Prescan#whole}). */
    private final boolean whole;
    /**
     * Its branch and procedure records go to every partition, its data accesses by address ({@link Prescan#stream}:
     * each partition's engine reconstructs the instruction stream, {@link StreamGaps}).
     */
    private final boolean stream;
    /** Not made by {@link #router}: no prescan said which traces hold only memory and call records (runs checked). */
    private final boolean unplanned;
    /** Per partition: the trace file's offset of the next record, placed before what it is written next; or -1. */
    private final long[] pendingAt;
    /** The record just routed was a call: the next one's offset is placed for every partition. */
    private boolean afterCall;
    /** {@link #route} when it gives a spin partition more ({@link SpinRoutes.Routing}), else null. */
    private final SpinRoutes.Routing spin;
    /** {@link Replay.Router#fill()}: the longest gap given as its accesses instead. */
    private final int fill;
    private final boolean handOff;
    private final int parts;
    private final int thread;
    private final TraceReader r;
    private final RoutedWriter[] w;
    /** Per partition: index (among this trace's memory records) of the first one it has not been given. */
    private final long[] given;
    /** Per partition: the trace's data bytes before {@link #given}. */
    private final long[] bytesBefore;
    /** Per partition: where its run of words in the current batch starts, or -1. */
    private final int[] runFrom;
    private final int[] to;
    /** {@link Replay.Router#blockBits} where the splitter remembers the answers by block, else -1. */
    private final int blockBits;
    /**
     * The answers by block (direct-mapped, {@value #BLOCKS} blocks, null when {@link #blockBits} is -1): the block
     * of each slot or -1; its answer's partition count, or -1 while the block has been asked once (its first
     * answer may differ from the later ones); and its partitions, {@link #width} a slot.
     */
    private final long[] blockTag;
    private final int[] blockCount;
    private final int[] blockTo;
    private final int width;
    /**
     * With {@link #blockBits} and gaps that need not end where the size changes, for at most 64 partitions: the first
     * pass over a batch ({@link #batchByMask}), else null.
     */
    private final BlockBatch blocks;
    /** The words of a batch that one partition gets ({@link BlockBatch#list}). */
    private final int[] listed;
    /** Slots of the block answers. */
    static final int BLOCKS = 256;
    private long idx;
    /**
     * Gaps end where the access size changes: a marker may stop or resume all threads ({@link Prescan#gapsBySize}),
     * or no prescan said none does (a live stream, a splitter not made with {@link #router}).
     */
    private final boolean bySize;
    /** The size of the trace's last data access routed by address: with {@link #bySize} a gap ends where it changes. */
    private int lastSize;
    /**
     * Per partition: where the size changes inside its open gap while the gap may still go as its accesses ({@link
     * #fill}: at most that many places), with the data bytes before each; a gap written is split there.
     */
    private final long[][] splitAt;
    private final long[][] splitBytes;
    private final int[] splits;
    /** Data accesses of a thread that goes whole (not counted in {@link #idx}: it has no gaps). */
    private long wholeAccesses;
    private long bytes;
    private long shipped;
    /** Gap records written, summed over the partitions. */
    private long gaps;
    private boolean done;

    /**
     * Routes thread {@code thread}'s trace {@code file} (read with replay options {@code o}) by {@code route} into
     * {@code out[p]} for each of the {@code out.length} partitions; each stream is closed at the trace's end. A
     * router made by {@link #router} also says which threads go whole to every partition; with any other, a
     * branch, procedure or fetch record is an {@link IllegalStateException}.
     */
    public RouteSplitter(Path file, int thread, Replay.Router route, ReplayOptions o, WritableByteChannel[] out) {
        this(Prescan.open(file, o), file.toString(), thread, route, out, false);
    }

    /**
     * Routes chunk {@code chunk} of thread {@code thread}'s trace {@code file} (of {@link Replay.Plan#chunks}; a
     * trace of one chunk is read whole) into {@code out[p]}: chunk i's streams continue chunk i - 1's (no header),
     * so that a partition reads a thread's chunk streams one after the other as one routed stream.
     */
    public RouteSplitter(Replay.Plan plan, Path file, int thread, int chunk, Replay.Router route, ReplayOptions o,
            WritableByteChannel[] out) {
        this(open(plan.prescan().chunks[thread], file, o, chunk), file.toString(), thread, route, out, chunk > 0);
    }

    /** Routes what {@code reader} reads into streams of bytes {@code out} ({@link RoutedWriter#bytes}). */
    private RouteSplitter(TraceReader reader, String name, int thread, Replay.Router route, WritableByteChannel[] out,
            boolean continuation) {
        this(reader, name, thread, route, bytes(reader, name, out), false, continuation);
    }

    /** Sinks writing bytes to {@code out}; closes {@code reader} if one cannot be made. */
    private static RoutedWriter.Sink[] bytes(TraceReader reader, String name, WritableByteChannel[] out) {
        RoutedWriter.Sink[] s = new RoutedWriter.Sink[out.length];
        try {
            for (int p = 0; p < out.length; p++) {
                s[p] = RoutedWriter.bytes(out[p], name, BYTES);
            }
            return s;
        } catch (IOException e) {
            Prescan.close(reader);
            throw new java.io.UncheckedIOException(name + ": cannot route: " + e.getMessage(), e);
        }
    }

    /** Write buffer of a stream of bytes, and words of a block. */
    private static final int BYTES = 64 << 10;
    /** Words of a block handed to a pipe (16 KiB). */
    static final int BLOCK_WORDS = 2048;

    /**
     * Routes thread {@code thread}'s live stream {@code in} (an on-the-fly replay's, named {@code name}; join hints
     * pass to every partition as calls do) into {@code out}, handing off after every step as the live router does.
     */
    RouteSplitter(java.nio.channels.ReadableByteChannel in, String name, int thread, Replay.Router route,
            RoutedPipe[] out, int bufferBytes) {
        this(liveReader(in, name, bufferBytes), name, thread, route, out, true, false);
    }

    private static TraceReader liveReader(java.nio.channels.ReadableByteChannel in, String name, int bufferBytes) {
        try {
            return new TraceReader(in, name, TraceReader.Options.defaults().bufferBytes(bufferBytes).liveHints(true));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(name + ": cannot read: " + e.getMessage(), e);
        }
    }

    /**
     * Routes what reader {@code reader} (of the file {@code name}, a whole trace or one chunk of it) reads, as above,
     * with {@code route}'s router for a chunk ({@link Replay.Router#forChunk}), into {@code out}; {@code inProcess}:
     * the sinks are pipes (blocks of words with run records), and every {@link #step} ends by giving each stream
     * everything read so far (the gap up to there), as the routers of a routed run do; {@code continuation}: the
     * streams continue those of the chunk before (no header).
     */
    RouteSplitter(TraceReader reader, String name, int thread, Replay.Router route, RoutedWriter.Sink[] out,
            boolean inProcess, boolean continuation) {
        Replay.Router chunk = route.forChunk();
        this.whole = chunk instanceof PlannedRouter && ((PlannedRouter) chunk).whole[thread];
        this.stream = chunk instanceof PlannedRouter && ((PlannedRouter) chunk).stream[thread];
        this.unplanned = !(chunk instanceof PlannedRouter);
        this.bySize = unplanned || ((PlannedRouter) chunk).bySize;
        this.route = chunk instanceof PlannedRouter ? ((PlannedRouter) chunk).inner : chunk;
        this.spin = this.route instanceof SpinRoutes.Routing ? (SpinRoutes.Routing) this.route : null;
        this.fill = Math.max(0, this.route.fill());
        int b = this.route.blockBits();
        // with spin routes, only a thread whose every access goes to the spin partition is decided by block
        this.blockBits = b >= 0 && b <= 12 && (spin == null || spin.everyAccess(thread)) ? b : -1;
        this.width = Math.min(Math.max(out.length, 1), 8);
        this.blockTag = blockBits < 0 ? null : new long[BLOCKS];
        this.blockCount = blockBits < 0 ? null : new int[BLOCKS];
        this.blockTo = blockBits < 0 ? null : new int[BLOCKS * width];
        if (blockTag != null) {
            java.util.Arrays.fill(blockTag, -1);
        }
        // a router deciding by access (CDAT's) measured slower so (module README "Decided by block")
        this.blocks = blockBits >= 0 && !bySize && out.length <= 64
                ? new BlockBatch(this.route, spin, thread, blockBits, STEP) : null;
        this.listed = blocks == null ? null : new int[STEP];
        this.thread = thread;
        this.parts = out.length;
        this.handOff = inProcess;
        given = new long[parts];
        bytesBefore = new long[parts];
        splitAt = new long[parts][fill];
        splitBytes = new long[parts][fill];
        splits = new int[parts];
        runFrom = new int[parts];
        pendingAt = new long[parts];
        to = new int[Math.max(parts, 1)];
        java.util.Arrays.fill(runFrom, -1);
        java.util.Arrays.fill(pendingAt, -1);
        r = reader;
        w = new RoutedWriter[parts];
        for (int p = 0; p < parts; p++) {
            w[p] = new RoutedWriter(out[p], name, inProcess ? BLOCK_WORDS : BYTES >>> 3, inProcess, continuation);
            if (inProcess) {
                w[p].flush();
            }
        }
    }

    /** Chunk i of a file cut into {@code cs} (null: the whole file, i = 0). */
    static TraceReader open(Chunks cs, Path file, ReplayOptions o, int i) {
        if (cs == null) {
            if (i != 0) {
                throw new IllegalArgumentException(file + " is read whole: no chunk " + i);
            }
            return Prescan.open(file, o);
        }
        return cs.open(file, o, i);
    }

    /**
     * The router that {@code routing} (what {@link Replay#runRouted} is given) makes for {@code plan}, with a context
     * of the plan's threads, partitions, work profile and synchronization variables (no trace set, no clocks): the
     * decisions of {@code runRouted}'s router, made anywhere the plan is.
     */
    public static Replay.Router router(Replay.Plan plan, java.util.function.Function<ReplayContext, Replay.Router>
            routing) {
        return PlannedRouter.of(plan, routing);
    }

    /**
     * {@code router}, made by {@link #router}, with gaps that end where the access size changes, as where a marker may
     * stop or resume all threads ({@link Prescan#gapsBySize}): for measuring what that costs on any trace.
     */
    public static Replay.Router gapsBySize(Replay.Router router) {
        return PlannedRouter.gapsBySize(router);
    }

    /** {@code route} with the threads that the prescan {@code pre} found go whole to every partition. */
    static Replay.Router planned(Replay.Router route, Prescan pre) {
        return PlannedRouter.planned(route, pre);
    }

    /**
     * Routes up to {@value #STEP} records and hands each partition's writer what it has (its stream gets the bytes
     * when the writer's buffer fills or the trace ends); returns false once the trace has ended and every stream is
     * closed. A bad record throws {@code BadInputException} naming the trace file and byte offset.
     */
    public boolean step() throws IOException {
        int left = STEP;
        while (left > 0 && !done) {
            int n = r.nextRun(left);
            if (n > 0) {
                if (afterCall) {
                    placeNext(r.offset() - (long) SmaitFormat.SIMPLE * (n - 1));
                }
                if (whole) {
                    wholeRun(r.runWords(), r.runStart(), n, r.addressHigh());
                } else if (stream) {
                    streamRun(r.runWords(), r.runStart(), n, r.addressHigh());
                } else {
                    if (unplanned) {
                        refuseCode(r.runWords(), r.runStart(), n);
                    }
                    batch(r.runWords(), r.runStart(), n, r.addressHigh());
                }
                left -= n;
                continue;
            }
            int k = r.next();
            left--;
            if (afterCall) {
                placeNext(r.offset());
            }
            if (k == RecordKind.MEMORY && !whole) {
                int size = r.size();
                if (bySize && size != lastSize) {
                    sizeChange(size, idx, null, 0, 0, Long.MAX_VALUE);
                }
                int c = spin == null ? route.route(thread, r.address(), size, to)
                        : spin.route(thread, r.address(), size, r.isStore(), to);
                shipped += c;
                for (int i = 0; i < c; i++) {
                    int p = to[i];
                    gapTo(p, idx, bytes);
                    placed(p);
                    w[p].record(r);
                    given[p] = idx + 1;
                    bytesBefore[p] = bytes + Math.max(size, 0);
                }
                idx++;
                bytes += Math.max(size, 0);
            } else if (k == RecordKind.EOF) {
                for (int p = 0; p < parts; p++) {
                    gapTo(p, idx, bytes);
                    at(p, r.offset());
                    w[p].close();
                }
                Prescan.close(r);
                done = true;
            } else if (k == RecordKind.CALL) {
                // every partition, placed in the trace file
                for (int p = 0; p < parts; p++) {
                    gapTo(p, idx, bytes);
                    at(p, r.offset());
                    w[p].record(r);
                }
                afterCall = true;
            } else if (whole) {
                // a memory, branch, procedure or fetch record of a thread that goes whole: every partition
                if (k == RecordKind.MEMORY) {
                    wholeAccesses++;
                    shipped += parts;
                }
                for (int p = 0; p < parts; p++) {
                    placed(p);
                    w[p].record(r);
                }
            } else if (stream) {
                // a branch or procedure record of a thread routed by address: every partition, after its gap
                for (int p = 0; p < parts; p++) {
                    gapTo(p, idx, bytes);
                    placed(p);
                    w[p].record(r);
                }
            } else {
                throw refused(r.offset());
            }
        }
        if (handOff) {
            handOff();
        }
        return !done;
    }

    /**
     * Gives each stream everything read so far (the gap up to there, the writer flushed): after every {@link #step}
     * of the live router, and before each read of a live stream, which may wait for the program.
     */
    void handOff() {
        if (!done) {
            for (int p = 0; p < parts; p++) {
                gapTo(p, idx, bytes);
                w[p].flush();
            }
        }
    }

    /** Data accesses read so far. */
    public long accesses() {
        return idx + wholeAccesses;
    }

    /** Data accesses written so far, summed over the partitions (an access that several need counts as often). */
    public long routed() {
        return shipped;
    }

    /** Gap records written so far, summed over the partitions. */
    public long gaps() {
        return gaps;
    }

    /** Throws {@link #refused} at the first word of the run that is not a memory record. */
    private void refuseCode(long[] words, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            if (TraceReader.wordKind(words[i]) != RecordKind.MEMORY) {
                throw refused(r.offset() - (long) SmaitFormat.SIMPLE * (end - 1 - i));
            }
        }
    }

    /** A branch, procedure or fetch record at {@code offset} in a trace this splitter routes as data accesses. */
    private BadInputException refused(long offset) {
        return new BadInputException(r.name() + ": byte offset " + offset + ": a branch, procedure or fetch record:"
                + " a routed replay takes memory and call records only where no plan says the trace goes whole (a live"
                + " stream, or a splitter not made with RouteSplitter.router of a plan)");
    }

    /** A run of words of a thread that goes whole: every partition, as they are. */
    private void wholeRun(long[] words, int from, int n, long high) {
        int m = 0;
        for (int i = from, end = from + n; i < end; i++) {
            if (TraceReader.wordKind(words[i]) == RecordKind.MEMORY) {
                m++;
            }
        }
        wholeAccesses += m;
        shipped += (long) m * parts;
        for (int p = 0; p < parts; p++) {
            placed(p);
            w[p].words(words, from, n, high);
        }
    }

    /**
     * A run of words of a thread routed by address whose instruction stream is known: its memory records as {@link
     * #batch} routes them, its branch and procedure records to every partition, each after the gap before it.
     */
    private void streamRun(long[] words, int from, int n, long high) {
        int end = from + n;
        for (int i = from; i < end; ) {
            int j = i;
            while (j < end && TraceReader.wordKind(words[j]) == RecordKind.MEMORY) {
                j++;
            }
            if (j > i) {
                batch(words, i, j - i, high);
            }
            i = j;
            while (j < end && TraceReader.wordKind(words[j]) != RecordKind.MEMORY) {
                j++;
            }
            if (j > i) {
                for (int p = 0; p < parts; p++) {
                    gapTo(p, idx, bytes);
                    placed(p);
                    w[p].words(words, i, j - i, high);
                }
            }
            i = j;
        }
    }

    /** The record after a call, at trace-file offset {@code offset}: placed for every partition before its next. */
    private void placeNext(long offset) {
        afterCall = false;
        java.util.Arrays.fill(pendingAt, offset);
    }

    /** Writes partition p's pending position record, if any, before what it is written next. */
    private void placed(int p) {
        if (pendingAt[p] >= 0) {
            at(p, pendingAt[p]);
        }
    }

    /** Writes a position record: partition p's next record (or its end) is at {@code offset} of the trace file. */
    private void at(int p, long offset) {
        pendingAt[p] = -1;
        w[p].at(offset);
    }

    /**
     * A run of memory-record words (addresses' high word {@code high}). A partition's few accesses it does not need
     * before one it needs go to it themselves when each is of at least one byte within one 4 KiB page: the last word
     * of the run so far that is not ({@code bad}) tells that for any of them at once.
     */
    private void batch(long[] words, int from, int n, long high) {
        if (blocks != null) {
            batchByMask(words, from, n, high);
            return;
        }
        if (blockBits >= 0) {
            batchByBlock(words, from, n, high);
            return;
        }
        long base = idx - from;
        int bad = from - 1;
        for (int i = from, end = from + n; i < end; i++) {
            long word = words[i];
            int f1 = (int) (word >>> 32);
            int size = MemType.bytes(f1);
            long a = high | (word & 0xFFFFFFFFL);
            int c = spin == null ? route.route(thread, a, size, to)
                    : spin.route(thread, a, size, (f1 & 0xF) == MemType.STORE, to);
            shipped += c;
            if (bySize && size != lastSize) {
                sizeChange(size, base + i, words, base, high, base + bad + 1);
            }
            for (int j = 0; j < c; j++) {
                give(to[j], words, base, high, bad, i, i, size);
            }
            if (size <= 0 || (word & 0xFFF) + size > 0x1000) {
                bad = i;
            }
            bytes += size;
        }
        idx += n;
        for (int p = 0; p < parts; p++) {
            if (runFrom[p] >= 0) {
                writeRun(p, words, base, high);
            }
        }
    }

    /**
     * {@link #batch} with a router that decides by block ({@link #blockBits}): an access to a block whose answer is
     * known is routed with that answer, and so are the accesses after it to the same block, at once: each partition
     * given them gets them as one run of words (after the first, nothing else happens to a partition: its gap or
     * filled run ends at the first).
     */
    private void batchByBlock(long[] words, int from, int n, long high) {
        long base = idx - from;
        int bad = from - 1;
        int bits = blockBits;
        long inBlock = (1L << bits) - 1;
        for (int i = from, end = from + n; i < end; i++) {
            long word = words[i];
            int f1 = (int) (word >>> 32);
            int size = MemType.bytes(f1);
            long a = high | (word & 0xFFFFFFFFL);
            int[] dst = to;
            int off = 0;
            int c;
            int last = i;
            long runBytes = size;
            if (size > 0 && (a & inBlock) + size <= inBlock + 1) {
                long block = a >>> bits;
                int slot = (int) block & (BLOCKS - 1);
                if (blockTag[slot] == block && blockCount[slot] > 0) {
                    c = blockCount[slot];
                    dst = blockTo;
                    off = slot * width;
                    // the accesses after it to the same block get the same answer
                    for (int j = i + 1; j < end; j++) {
                        long wj = words[j];
                        int sj = MemType.bytes((int) (wj >>> 32));
                        long aj = high | (wj & 0xFFFFFFFFL);
                        if (sj <= 0 || aj >>> bits != block || (aj & inBlock) + sj > inBlock + 1
                                || bySize && sj != size) {
                            break;
                        }
                        last = j;
                        runBytes += sj;
                    }
                } else {
                    c = routeOne(a, size, f1);
                    if (blockTag[slot] != block) {
                        blockTag[slot] = block;
                        blockCount[slot] = -1; // asked once: a later answer is the block's
                    } else if (c <= width) {
                        System.arraycopy(to, 0, blockTo, slot * width, c);
                        blockCount[slot] = c;
                    }
                }
            } else {
                c = routeOne(a, size, f1);
            }
            shipped += (long) c * (last - i + 1);
            if (bySize && size != lastSize) {
                sizeChange(size, base + i, words, base, high, base + bad + 1);
            }
            for (int j = 0; j < c; j++) {
                give(dst[off + j], words, base, high, bad, i, last, runBytes);
            }
            if (size <= 0 || (word & 0xFFF) + size > 0x1000) {
                bad = i;
            }
            bytes += runBytes;
            i = last;
        }
        idx += n;
        for (int p = 0; p < parts; p++) {
            if (runFrom[p] >= 0) {
                writeRun(p, words, base, high);
            }
        }
    }

    /**
     * {@link #batch} with a router that decides by block, where gaps need not end at size changes: {@link BlockBatch}
     * first classifies every word (its partitions, the bytes before it, the last word before it that cannot be
     * filled), then each partition the batch touches takes its words from the masks in one pass, writing a run of
     * words for each stretch of words it gets or may get filled, and a gap before each stretch that follows a gap
     * it may not fill: the streams of {@link #batchByBlock}, with the branches of a word's routing out of the loop
     * that finds the runs.
     */
    private void batchByMask(long[] words, int from, int n, long high) {
        BlockBatch b = blocks;
        b.classify(words, from, n, high);
        long start = bytes;
        long any = b.any;
        // the partitions given some of the words, not all: listed one at a time if few, else all in one pass
        long some = any & ~b.every;
        boolean bucketed = Long.bitCount(some) > 2;
        if (bucketed) {
            b.bucket(some, n);
        }
        for (int p = 0; p < parts; p++) {
            if ((any >>> p & 1) == 0) {
                continue;
            }
            if ((b.every >>> p & 1) != 0) {
                // every word: one run, after the gap before it (the batch's first word cannot end a filled run)
                shipped += n;
                gapTo(p, idx, start);
                placed(p);
                w[p].words(words, from, n, high);
                given[p] = idx + n;
                bytesBefore[p] = start + b.before[n];
                continue;
            }
            int[] at = bucketed ? b.lists[p] : listed;
            int k = bucketed ? b.counts[p] : b.list(p, n, at);
            shipped += k;
            long gp = given[p] - idx; // the first word p has not been given, from the batch's first
            int run = -1;
            for (int j = 0; j < k; j++) {
                int r = at[j];
                long g = r - gp;
                if (g > 0) {
                    if (g <= fill && gp > b.lastBad[r]) {
                        // the few accesses before r go as themselves
                        if (run < 0) {
                            run = (int) gp;
                        }
                    } else {
                        if (run >= 0) {
                            placed(p);
                            w[p].words(words, from + run, (int) gp - run, high);
                            run = -1;
                        }
                        if (gp >= 0) {
                            given[p] = idx + gp;
                            bytesBefore[p] = start + b.before[(int) gp];
                        }
                        gapTo(p, idx + r, start + b.before[r]);
                    }
                }
                if (run < 0) {
                    run = r;
                }
                gp = r + 1;
            }
            if (run >= 0) {
                placed(p);
                w[p].words(words, from + run, (int) gp - run, high);
            }
            if (k > 0) {
                given[p] = idx + gp;
                bytesBefore[p] = start + b.before[(int) gp];
            }
        }
        idx += n;
        bytes = start + b.before[n];
    }

    /**
     * Gives partition p the accesses {@code i .. last} of the batch (memory records {@code base + i ..}), of {@code
     * runBytes} data bytes; the accesses before them it does not need go as themselves if they are at most {@link
     * #fill} and all lie after {@code bad} (the batch's last word that is not an access of at least one byte within
     * one page), else as a gap.
     */
    private void give(int p, long[] words, long base, long high, int bad, int i, int last, long runBytes) {
        long at = base + i;
        long g = at - given[p];
        if (g > 0 && g <= fill && given[p] - base > bad) {
            // the few accesses p does not need before this one go to it themselves instead of a gap
            if (runFrom[p] < 0) {
                runFrom[p] = (int) (given[p] - base);
            }
            splits[p] = 0;
        } else {
            if (runFrom[p] >= 0 && g > 0) {
                writeRun(p, words, base, high);
            }
            if (runFrom[p] < 0) {
                gapTo(p, at, bytes);
                runFrom[p] = i;
            }
        }
        given[p] = base + last + 1;
        bytesBefore[p] = bytes + runBytes;
    }

    /** The partitions of the access of {@code size} bytes at {@code a}, of type field {@code f1}, into {@link #to}. */
    private int routeOne(long a, int size, int f1) {
        return spin == null ? route.route(thread, a, size, to)
                : spin.route(thread, a, size, (f1 & 0xF) == MemType.STORE, to);
    }

    private void writeRun(int p, long[] words, long base, long high) {
        placed(p);
        int from = runFrom[p];
        w[p].words(words, from, (int) (given[p] - base) - from, high);
        runFrom[p] = -1;
    }

    /**
     * Data access {@code at} is of {@code size} bytes, another size than the one before it: every partition's gap
     * ends before it (a gap's accesses are of one size), after the partition's run of words so far in the batch
     * {@code words} (memory record {@code base + i} at {@code words[i]}, addresses' high word {@code high}); a gap
     * that may still go as its accesses (at most {@link #fill} of them, from record {@code fillFrom} on) is split
     * there only if it is written.
     */
    private void sizeChange(int size, long at, long[] words, long base, long high, long fillFrom) {
        lastSize = size;
        for (int p = 0; p < parts; p++) {
            if (given[p] < at) {
                if (at - given[p] <= fill && given[p] >= fillFrom) {
                    splitAt[p][splits[p]] = at;
                    splitBytes[p][splits[p]++] = bytes;
                    continue;
                }
                if (runFrom[p] >= 0) {
                    writeRun(p, words, base, high);
                }
                gapTo(p, at, bytes);
            }
        }
    }

    /**
     * Writes partition p's gap up to memory record {@code upTo}, whose data bytes before it are {@code b}: one gap
     * record per size ({@link #splitAt}).
     */
    private void gapTo(int p, long upTo, long b) {
        if (upTo > given[p]) {
            placed(p);
            for (int s = 0, n = splits[p]; s < n; s++) {
                long at = splitAt[p][s];
                w[p].gap(at - given[p], splitBytes[p][s] - bytesBefore[p]);
                gaps++;
                given[p] = at;
                bytesBefore[p] = splitBytes[p][s];
            }
            if (upTo > given[p]) {
                w[p].gap(upTo - given[p], b - bytesBefore[p]);
                gaps++;
            }
            given[p] = upTo;
            bytesBefore[p] = b;
        }
        splits[p] = 0;
    }

    /** Closes the trace (the streams are closed by {@link #step} at the trace's end only). */
    @Override
    public void close() {
        if (!done) {
            Prescan.close(r);
        }
    }
}
