package org.dsmscope.explain;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongFunction;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.OutputFile;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.sidecar.DataMap;
import org.dsmscope.trace.sidecar.SymbolFile;

/**
 * One EXPLAIN run end to end (what {@code dsmscope explain} does): replay a trace set through the {@link
 * DsmSimulator} (writing the fault trace), or read a fault trace made elsewhere; explain it; at line granularity
 * look for false sharing and replay once more with the falsely shared lines split.
 */
public final class ExplainRun {
    /** What to simulate and how to weigh it. */
    public static final class Options {
        /** Cache lines (hardware coherence) instead of pages. */
        public boolean lines;
        /** Page or line size, bytes (a power of two). */
        public int unitSize = 4096;
        /** Cost model (null: the granularity's defaults). */
        public CostModel cost;
        /** Similarity tolerance of merged explanations. */
        public double tolerance = 0.10;
        /** Where to write the fault trace (through NAME.partial, renamed when complete; null: not written). */
        public Path faultsOut;
        /** Partitions of the replay (1: serial); the results are the serial run's. */
        public int partitions = 1;
    }

    /** The results: the explainer, profiles, terms, false sharing (null at page granularity) and the report. */
    public record Result(Explainer explainer, Profiles profiles, Sources sources, List<FalseSharing.Line> falseSharing,
                         ExplainReport report) {
    }

    private ExplainRun() {
    }

    /** Replays {@code detailed} (calls: {@code calls}, may be null) through the DSM and explains the faults. */
    public static Result replay(TraceSet detailed, TraceSet calls, ReplayOptions ro, Options o) throws IOException {
        CostModel cm = cost(o);
        int procs = detailed.size();
        FaultTrace trace = new FaultTrace(o.lines, o.unitSize, procs);
        Path partial = o.faultsOut == null ? null : OutputFile.partial(o.faultsOut);
        Writer w = partial == null ? null
                : new BufferedWriter(Files.newBufferedWriter(partial, StandardCharsets.UTF_8), 1 << 16);
        DataMap dm = dataMap(detailed);
        LongFunction<long[][]> masks;
        boolean done = false;
        try {
            FaultSink sink = w == null ? trace : both(trace, FaultFormat.writer(w, o.lines, o.unitSize, procs,
                    dm == null ? null : a -> Sources.dataToken(dm, a)));
            Replay r = new Replay(detailed, calls, ro);
            if (o.partitions > 1) {
                PartitionedFaults parts = PartitionedFaults.run(r, o.partitions, o.lines, o.unitSize, null);
                parts.merge(sink);
                masks = parts.masks();
            } else {
                DsmSimulator sim = new DsmSimulator(o.lines, o.unitSize, sink, null);
                r.add(sim);
                r.run();
                masks = sim::masks;
            }
            done = true;
        } finally {
            if (w != null) {
                w.close();
                if (done) {
                    OutputFile.commit(partial, o.faultsOut);
                } else {
                    OutputFile.discard(partial);
                }
            }
        }
        Sources src = new Sources(trace, dm, symbols(detailed), false);
        Explainer e = new Explainer(trace, cm);
        List<FalseSharing.Line> fs = null;
        if (o.lines) {
            fs = FalseSharing.find(e, masks, src);
            if (!fs.isEmpty()) {
                Replay r = new Replay(detailed, calls, ro);
                if (o.partitions > 1) {
                    FalseSharing.counted(fs, PartitionedFaults.run(r, o.partitions, true, o.unitSize,
                            FalseSharing.split(fs)).coherenceMisses());
                } else {
                    DsmSimulator split = new DsmSimulator(true, o.unitSize, null, FalseSharing.split(fs));
                    r.add(split);
                    r.run();
                    FalseSharing.counted(fs, split::coherenceMisses);
                }
            }
        }
        Profiles p = new Profiles(e, src, o.tolerance);
        return new Result(e, p, src, fs, new ExplainReport(e, p, src, fs));
    }

    /**
     * Explains fault trace {@code f} (made elsewhere): no replay, sites, units and data as the trace names them; at
     * line granularity false sharing from the faults' bytes, without the count a split replay gives.
     */
    public static Result faults(Path f, Options o) throws IOException {
        FaultTrace trace = FaultFormat.read(f);
        o.lines = trace.lines;
        o.unitSize = trace.unitSize;
        Sources src = new Sources(trace, null, null, true);
        Explainer e = new Explainer(trace, cost(o));
        List<FalseSharing.Line> fs = o.lines ? FalseSharing.find(e, null, src) : null;
        Profiles p = new Profiles(e, src, o.tolerance);
        return new Result(e, p, src, fs, new ExplainReport(e, p, src, fs));
    }

    private static CostModel cost(Options o) {
        return o.cost != null ? o.cost : o.lines ? CostModel.lines() : CostModel.pages();
    }

    /** The data map beside the trace set, or null when there is none. */
    static DataMap dataMap(TraceSet set) throws IOException {
        Path f = DataMap.pathFor(set.base());
        return Files.isRegularFile(f) ? DataMap.read(f) : null;
    }

    /** The symbol file beside the trace set, or null when there is none or it has no line rows. */
    static SymbolFile symbols(TraceSet set) throws IOException {
        Path f = SymbolFile.pathFor(set.base());
        if (!Files.isRegularFile(f)) {
            return null;
        }
        try {
            return SymbolFile.read(f);
        } catch (BadInputException e) {
            throw new BadInputException(e.getMessage() + " (move the symbol file away to explain without lines)", e);
        }
    }

    /** A sink handing every record to a and then b. */
    static FaultSink both(FaultSink a, FaultSink b) {
        return new FaultSink() {
            @Override
            public void fault(int id, long time, int proc, long unit, boolean write, long address, long site,
                    int offset, int size) {
                a.fault(id, time, proc, unit, write, address, site, offset, size);
                b.fault(id, time, proc, unit, write, address, site, offset, size);
            }

            @Override
            public void sync(long time, int proc, int kind, long[] units, int[] faults, int n) {
                a.sync(time, proc, kind, units, faults, n);
                b.sync(time, proc, kind, units, faults, n);
            }
        };
    }
}
