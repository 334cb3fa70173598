package org.dsmscope.cdat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;

/**
 * Drives one {@link Cdat} directly, as a replay would: replay processor {@code cpu} issues loads, stores, fetches
 * at clocks the test gives; with a folder, outputs go there ({@code sim.p.*}) and the detailed trace can be read
 * back as lines.
 */
final class Sim implements ReplayContext {
    final Cdat cdat;
    private final int cpus;
    private final int ios;
    private final Path dir;
    private Phase phase;

    Sim(CdatConfig cfg, int cpus, Path dir) {
        this(cfg, cpus, 0, dir, true);
    }

    Sim(CdatConfig cfg, int cpus, int ios, Path dir, boolean check) {
        this(new Cdat(cfg, options(check, dir != null)), cpus, ios, dir);
    }

    /** A driver of an analysis made by the test, without files. */
    Sim(Cdat cdat, int cpus) {
        this(cdat, cpus, 0, null);
    }

    private static CdatOptions options(boolean check, boolean files) {
        CdatOptions o = new CdatOptions();
        o.check = check;
        o.writeFiles = files;
        return o;
    }

    private Sim(Cdat cdat, int cpus, int ios, Path dir) {
        this.cdat = cdat;
        this.cpus = cpus;
        this.ios = ios;
        this.dir = dir;
        cdat.begin(this);
        phase = new Phase(1, Phase.Kind.PARALLEL, 0, -1);
        cdat.phaseBegin(phase);
    }

    @Override
    public int threads() {
        return cpus;
    }

    @Override
    public int processors() {
        return cpus;
    }

    @Override
    public int ioProcessors() {
        return ios;
    }

    @Override
    public TraceSet traces() {
        return dir == null ? null : TraceSet.of(dir.resolve("sim.p").toString(), List.of());
    }

    @Override
    public boolean isSyncVariable(long address) {
        return false;
    }

    @Override
    public long clock(int thread) {
        return 0;
    }

    Sim load(int cpu, long clock, long address) {
        cdat.access(cpu, cpu, clock, MemType.encode(MemType.LOAD, 4, MemType.FIXED), 4, false, address);
        return this;
    }

    Sim store(int cpu, long clock, long address) {
        cdat.access(cpu, cpu, clock, MemType.encode(MemType.STORE, 4, MemType.FIXED), 4, true, address);
        return this;
    }

    Sim fetch(int cpu, long clock, long address) {
        cdat.fetch(cpu, cpu, clock, address, 4);
        return this;
    }

    /** Ends the run (the checker verifies the whole machine first). */
    CdatResult end() {
        cdat.verify();
        phase.end(0);
        cdat.phaseEnd(phase, new PhaseTimes(cpus));
        cdat.end(this, new PhaseTimes(cpus));
        return cdat.result();
    }

    /** The detailed trace's lines (after {@link #end}). */
    List<String> detailed() {
        return lines(dir.resolve("sim.p.cdat_detailed"));
    }

    /** A general trace file's lines (after {@link #end}). */
    List<String> general(String k) {
        return lines(dir.resolve("sim.p.cdat_general." + k));
    }

    static List<String> lines(Path p) {
        try {
            return new ArrayList<>(Files.readAllLines(p));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
