package org.dsmscope.replay;

import java.util.ArrayList;
import java.util.List;

/** An analysis that records every callback as a line of text (and the phase times) for tests. */
final class Recorder implements Analysis {
    final StringBuilder log = new StringBuilder();
    final List<String> accesses = new ArrayList<>();
    final List<Long> fetches = new ArrayList<>();
    final List<long[][]> phaseTimes = new ArrayList<>();
    final List<String> phases = new ArrayList<>();
    final List<String> calls = new ArrayList<>();
    long[][] total;
    ReplayContext ctx;
    boolean ended;
    final List<Boolean> syncSeen = new ArrayList<>();

    @Override
    public void begin(ReplayContext c) {
        ctx = c;
        log.append("begin ").append(c.threads()).append(' ').append(c.processors()).append('\n');
    }

    @Override
    public void phaseBegin(Phase phase) {
        log.append("phase ").append(phase.id()).append(' ').append(phase.kind().label()).append(' ')
                .append(phase.startClock()).append('\n');
    }

    @Override
    public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
        String s = thread + " " + cpu + " " + clock + " " + (store ? "S" : "L") + " " + Long.toHexString(address);
        accesses.add(s);
        syncSeen.add(ctx.isSyncVariable(address));
        log.append("A ").append(s).append('\n');
    }

    @Override
    public void fetch(int thread, int cpu, long clock, long address, int size) {
        fetches.add(address);
        log.append("F ").append(thread).append(' ').append(clock).append(' ').append(Long.toHexString(address))
                .append('\n');
    }

    @Override
    public void branch(int thread, int cpu, long clock, int kind, long source, long target) {
        log.append("B ").append(thread).append(' ').append(clock).append(' ').append(kind).append('\n');
    }

    @Override
    public void call(int thread, int cpu, long clock, CallEvent call) {
        String s = thread + " " + cpu + " " + clock + " " + org.dsmscope.trace.CallType.name(call.type) + " wait "
                + call.waitClocks + " t " + call.startTime + "-" + call.endTime;
        calls.add(s);
        log.append("C ").append(s).append('\n');
    }

    @Override
    public void phaseEnd(Phase phase, PhaseTimes times) {
        phases.add(phase.kind().label() + " " + phase.startClock() + "-" + phase.endClock());
        phaseTimes.add(copy(times));
        log.append("end ").append(phase.id()).append(' ').append(phase.endClock()).append('\n');
    }

    @Override
    public void end(ReplayContext c, PhaseTimes t) {
        total = copy(t);
        ended = true;
    }

    static long[][] copy(PhaseTimes t) {
        return new long[][] {t.busy.clone(), t.idle.clone(), t.imbalance.clone(), t.contention.clone()};
    }
}
