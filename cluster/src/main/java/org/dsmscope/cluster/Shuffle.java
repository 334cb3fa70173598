package org.dsmscope.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.Partitioner;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.RouteSplitter;
import org.dsmscope.trace.BadInputException;
import scala.Tuple2;

/**
 * Records shuffled by address partition (SPEC §4 "Partitioning", cluster/README.md "What is shuffled"): a map task
 * per chunk of a thread trace (the whole file, or a piece the driver's prescan cut a large one into: {@link
 * Replay.Plan#chunks}) reads its bytes once and routes them ({@link RouteSplitter}, the decisions of the analysis's
 * {@link Replay.Router} for the driver's plan) into one routed stream per partition, shipped as blocks of at most
 * {@value #BLOCK} bytes (less with many partitions: {@link #blockBytes}) keyed by (partition, thread, chunk, block
 * number), a thread's chunk streams forming one stream in chunk order;
 * Spark's shuffle brings partition k's blocks to reduce task k, which spools them (in memory up to a budget, the
 * rest in a local file: {@link Spool}) and replays
 * partition k from its threads' streams ({@link
 * Replay#runPartition(Replay.Plan, int, org.dsmscope.replay.Analysis, java.util.function.IntFunction)}). A map task
 * that meets a bad record or cannot read its file sends every partition one error block in place of the rest.
 */
final class Shuffle {
    /** Bytes of a shuffled block with up to 64 partitions (the last of a stream is shorter). */
    static final int BLOCK = 1 << 20;

    /**
     * Bytes of a shuffled block with {@code parts} partitions: {@link #BLOCK}, less where a map task's one block in
     * the making per partition would hold more than 64 MiB, but at least 64 KiB.
     */
    static int blockBytes(int parts) {
        return Math.max(64 << 10, Math.min(BLOCK, (64 << 20) / parts));
    }
    /** Block number of an error block (its bytes: the one-line message, a tab, where the map task ran). */
    static final long ERROR = 0xFFFFFFFFL;
    /** At most this many threads: the key holds partition (10 bits), thread (22) and block number (32). */
    static final int MAX_THREADS = 1 << 22;
    /** A block number holds the chunk (its high 12 bits: at most 4095 chunks, as the prescan cuts) and the block. */
    static final int CHUNK_SHIFT = 20;

    /** The block number of block {@code seq} of chunk {@code chunk}'s stream. */
    static long block(int chunk, long seq) {
        if (seq >= 1L << CHUNK_SHIFT || chunk >= 4095) {
            throw new IllegalStateException("chunk " + chunk + ": block " + seq + " past the key's room");
        }
        return (long) chunk << CHUNK_SHIFT | seq;
    }

    /** A map task's input: thread t, chunk c (of {@link Replay.Plan#chunks}, or -1: the whole file). */
    static long task(int t, int c) {
        return (long) t << 32 | (c & 0xFFFFFFFFL);
    }

    private Shuffle() {
    }

    /** The key of block {@code seq} of thread {@code t}'s stream to partition {@code part}. */
    static long key(int part, int t, long seq) {
        return (long) part << 54 | (long) t << 32 | seq;
    }

    /** Spark's partition of a block: the analysis partition in its key. */
    static final class ByPartition extends Partitioner {
        private static final long serialVersionUID = 1L;
        private final int parts;

        ByPartition(int parts) {
            this.parts = parts;
        }

        @Override
        public int numPartitions() {
            return parts;
        }

        @Override
        public int getPartition(Object key) {
            return (int) ((Long) key >>> 54);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ByPartition && ((ByPartition) o).parts == parts;
        }

        @Override
        public int hashCode() {
            return parts;
        }
    }

    /** The map task of a thread trace: its routed streams' blocks, made as the shuffle writer asks for them. */
    static final class Split implements PairFlatMapFunction<Long, Long, byte[]> {
        private static final long serialVersionUID = 1L;
        private final PartitionJob job;
        private final Broadcast<Replay.Plan> plan;
        private final String root;
        private final Tasks tasks;
        private final LongAccumulator read;
        private final LongAccumulator routed;

        /** The map tasks of {@code tasks}; they add the accesses they read and route to {@code read}, {@code routed}. */
        Split(Tasks tasks, LongAccumulator read, LongAccumulator routed) {
            this.job = tasks.job;
            this.plan = tasks.plan;
            this.root = tasks.root;
            this.tasks = tasks;
            this.read = read;
            this.routed = routed;
        }

        @Override
        public Iterator<Tuple2<Long, byte[]>> call(Long task) {
            return new Blocks((int) (task >>> 32), (int) task.longValue(), plan.value());
        }

        /** Routes thread t's trace a step at a time while the shuffle writer takes the blocks. */
        private final class Blocks implements Iterator<Tuple2<Long, byte[]>> {
            private final int t;
            /** The chunk routed, or -1 for the whole file (its stream is chunk 0's). */
            private final int chunk;
            private final int parts;
            private final int block;
            private final ArrayDeque<Tuple2<Long, byte[]>> ready = new ArrayDeque<>();
            private Path scratch;
            private RouteSplitter split;
            private boolean more = true;

            Blocks(int t, int chunk, Replay.Plan p) {
                this.t = t;
                this.chunk = chunk;
                this.parts = p.parts();
                this.block = blockBytes(parts);
                try {
                    scratch = job.detailed.scratch();
                    Path file = job.detailed.file(t, scratch, tasks.hadoop(), root);
                    WritableByteChannel[] out = new WritableByteChannel[parts];
                    for (int k = 0; k < parts; k++) {
                        out[k] = new BlockOut(k);
                    }
                    Replay.Router router = RouteSplitter.router(p, job.routing(parts));
                    split = chunk < 0 ? new RouteSplitter(file, t, router, job.replayOptions(), out)
                            : new RouteSplitter(p, file, t, chunk, router, job.replayOptions(), out);
                } catch (BadInputException | UncheckedIOException e) {
                    failed(job.detailed.named(e.getMessage(), scratch));
                }
            }

            @Override
            public boolean hasNext() {
                while (ready.isEmpty() && more) {
                    try {
                        more = split.step();
                    } catch (BadInputException | UncheckedIOException e) {
                        failed(job.detailed.named(e.getMessage(), scratch));
                    } catch (IOException e) {
                        failed(job.detailed.given + "." + t + ": cannot route: " + e.getMessage());
                    }
                    if (!more) {
                        end();
                    }
                }
                return !ready.isEmpty();
            }

            @Override
            public Tuple2<Long, byte[]> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return ready.poll();
            }

            /** In place of everything else: one error block to every partition. */
            private void failed(String message) {
                ready.clear();
                byte[] m = (message + "\t" + Tasks.where()).getBytes(StandardCharsets.UTF_8);
                for (int k = 0; k < parts; k++) {
                    ready.add(new Tuple2<>(key(k, t, ERROR), m));
                }
                more = false;
                end();
            }

            private void end() {
                if (split != null) {
                    read.add(split.accesses());
                    routed.add(split.routed());
                    split.close();
                    split = null;
                }
                TraceInput.delete(scratch);
                scratch = null;
            }

            /** Partition k's stream of this thread, cut into blocks. */
            private final class BlockOut implements WritableByteChannel {
                private final int k;
                private byte[] buf = new byte[block];
                private int filled;
                private long seq;
                private boolean open = true;

                BlockOut(int k) {
                    this.k = k;
                }

                @Override
                public int write(ByteBuffer src) {
                    int n = src.remaining();
                    while (src.hasRemaining()) {
                        int c = Math.min(src.remaining(), block - filled);
                        src.get(buf, filled, c);
                        filled += c;
                        if (filled == block) {
                            ship(buf);
                            buf = new byte[block];
                        }
                    }
                    return n;
                }

                private void ship(byte[] b) {
                    if (more) {
                        ready.add(new Tuple2<>(key(k, t, block(Math.max(chunk, 0), seq++)), b));
                    }
                    filled = 0;
                }

                @Override
                public boolean isOpen() {
                    return open;
                }

                @Override
                public void close() {
                    if (open && filled > 0) {
                        ship(Arrays.copyOf(buf, filled));
                    }
                    open = false;
                    buf = null;
                }
            }
        }
    }

    /** The reduce task of partition k: its blocks spooled, then its replay from its threads' routed streams. */
    static final class Replays implements Function2<Integer, Iterator<Tuple2<Long, byte[]>>, Iterator<Outcome>> {
        private static final long serialVersionUID = 1L;
        private final Tasks tasks;

        Replays(Tasks tasks) {
            this.tasks = tasks;
        }

        @Override
        public Iterator<Outcome> call(Integer k, Iterator<Tuple2<Long, byte[]>> blocks) throws IOException {
            String where = Tasks.where();
            Path dir = Files.createTempDirectory(localDir(), "dsmscope-shuffle-");
            try (Spool spool = new Spool(dir.resolve("part-" + k), tasks.plan.value().threads(),
                    Spool.budget(Runtime.getRuntime().maxMemory(), taskSlots()))) {
                String failed = null;
                int failedThread = Integer.MAX_VALUE;
                while (blocks.hasNext()) {
                    Tuple2<Long, byte[]> b = blocks.next();
                    long key = b._1();
                    int t = (int) (key >>> 32) & (MAX_THREADS - 1);
                    long seq = key & 0xFFFFFFFFL;
                    if (seq == ERROR) {
                        if (t < failedThread) {
                            failedThread = t;
                            failed = new String(b._2(), StandardCharsets.UTF_8);
                        }
                    } else if (failed == null) {
                        spool.add(t, seq, b._2());
                    }
                }
                if (failed != null) {
                    int tab = failed.lastIndexOf('\t');
                    return List.of(new Outcome(k, null, failed.substring(0, tab), failed.substring(tab + 1), true,
                            spool.bytes)).iterator();
                }
                return List.of(tasks.replay(k, where, spool::channel).received(spool.bytes)).iterator();
            } finally {
                TraceInput.delete(dir);
            }
        }
    }

    /** How many tasks this executor runs at once (its cores over {@code spark.task.cpus}), at least 1. */
    private static int taskSlots() {
        SparkEnv env = SparkEnv.get();
        if (env == null) {
            return 1;
        }
        int local = SparkFlags.localCores(env.conf().get("spark.master", ""));
        int cores = local > 0 ? local
                : env.conf().getInt("spark.executor.cores", Runtime.getRuntime().availableProcessors());
        return Math.max(1, cores / Math.max(1, env.conf().getInt("spark.task.cpus", 1)));
    }

    /** A folder of Spark's local directories ({@code spark.local.dir}, SPARK_LOCAL_DIRS) for the spool. */
    private static Path localDir() {
        SparkEnv env = SparkEnv.get();
        return Path.of(env == null ? System.getProperty("java.io.tmpdir")
                : org.apache.spark.util.Utils.getLocalDir(env.conf()));
    }

    /**
     * The blocks a reduce task received, indexed by thread, chunk and block number: held as they came (the arrays
     * the shuffle reader made, no copy) up to a budget of bytes, the rest appended to one local file as they come;
     * {@link #channel} reads thread t's stream back in block order.
     */
    static final class Spool implements AutoCloseable {
        private final Path path;
        private final long budget;
        private FileChannel file;
        private long fileBytes;
        private final long[][] at;
        private final int[][] len;
        private final long[][] seqs;
        private final byte[][][] mem;
        private final int[] count;
        private final boolean[] opened;
        private long held;
        /** Bytes received. */
        long bytes;

        /**
         * A spool of {@code threads} threads' blocks holding up to {@code budget} bytes in memory, the rest in a file at
         * {@code path} (made on the first block past the budget).
         */
        Spool(Path path, int threads, long budget) {
            this.path = path;
            this.budget = budget;
            at = new long[threads][4];
            len = new int[threads][4];
            seqs = new long[threads][4];
            mem = new byte[threads][4][];
            count = new int[threads];
            opened = new boolean[threads];
        }

        /**
         * The bytes a reduce task holds in memory: an eighth of the heap shared by the executor's task slots
         * ({@code slots}), so that the slots' spools together take at most an eighth of it.
         */
        static long budget(long maxHeap, int slots) {
            return maxHeap / 8 / Math.max(1, slots);
        }

        /** Bytes held in memory (the rest is in the spool's file). */
        long inMemory() {
            return held;
        }

        void add(int t, long seq, byte[] b) throws IOException {
            int i = count[t]++;
            if (i == at[t].length) {
                at[t] = Arrays.copyOf(at[t], 2 * i);
                len[t] = Arrays.copyOf(len[t], 2 * i);
                seqs[t] = Arrays.copyOf(seqs[t], 2 * i);
                mem[t] = Arrays.copyOf(mem[t], 2 * i);
            }
            len[t][i] = b.length;
            seqs[t][i] = seq;
            if (held + b.length <= budget) {
                mem[t][i] = b;
                held += b.length;
            } else {
                if (file == null) {
                    file = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                            StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
                }
                at[t][i] = fileBytes;
                ByteBuffer src = ByteBuffer.wrap(b);
                while (src.hasRemaining()) {
                    file.write(src, fileBytes + src.position());
                }
                fileBytes += b.length;
            }
            bytes += b.length;
        }

        /**
         * Thread t's routed stream: its blocks in order of chunk, then block (each chunk's numbered once, from 0;
         * chunks from 0, each with a block at least: a chunk's stream holds a gap or a record). Read once: a block
         * held in memory is let go as it is read.
         */
        ReadableByteChannel channel(int t) {
            if (opened[t]) {
                throw new IllegalStateException("thread " + t + ": its spooled stream is read once");
            }
            opened[t] = true;
            int n = count[t];
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Long.compare(seqs[t][a], seqs[t][b]));
            long want = 0;
            for (int i = 0; i < n; i++) {
                long s = seqs[t][order[i]];
                if (s != want && s != ((want >>> CHUNK_SHIFT) + 1) << CHUNK_SHIFT || i == 0 && s != 0) {
                    throw new IllegalStateException("thread " + t + ": shuffled block " + Long.toHexString(want)
                            + " missing");
                }
                want = s + 1;
            }
            return new ReadableByteChannel() {
                private int block;
                private int off;

                @Override
                public int read(ByteBuffer dst) throws IOException {
                    while (block < n && off == len[t][order[block]]) {
                        mem[t][order[block]] = null; // read: its bytes are the replay's now
                        block++;
                        off = 0;
                    }
                    if (block == n) {
                        return -1;
                    }
                    int i = order[block];
                    int want = Math.min(dst.remaining(), len[t][i] - off);
                    int got;
                    if (mem[t][i] != null) {
                        dst.put(mem[t][i], off, want);
                        got = want;
                    } else {
                        ByteBuffer d = dst.duplicate();
                        d.limit(d.position() + want);
                        got = file.read(d, at[t][i] + off);
                        if (got < 0) {
                            throw new IOException("shuffle spool: short file");
                        }
                        dst.position(dst.position() + got);
                    }
                    off += got;
                    return got;
                }

                @Override
                public boolean isOpen() {
                    return true;
                }

                @Override
                public void close() {
                    // the spool closes the file
                }
            };
        }

        @Override
        public void close() throws IOException {
            if (file != null) {
                file.close();
            }
        }
    }
}
