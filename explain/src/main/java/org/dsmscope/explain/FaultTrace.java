package org.dsmscope.explain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A page-fault and synchronization trace held in memory (seed 003: "a record of every page fault and
 * synchronization operation, with a global timestamp for each"), column by column in primitive arrays. Faults are
 * numbered from 0; each synchronization record remembers how many faults came before it, so the records' order is
 * kept. Filled as a {@link FaultSink}; read by the {@link Explainer}.
 */
public final class FaultTrace implements FaultSink {
    /** True at cache-line granularity (hardware coherence), false for pages (software DSM). */
    public final boolean lines;
    /** Bytes per unit (page or line). */
    public final int unitSize;
    /** Number of processors. */
    public final int processors;

    int faults;
    long[] time = new long[1024];
    int[] proc = new int[1024];
    long[] unit = new long[1024];
    boolean[] write = new boolean[1024];
    long[] address = new long[1024];
    long[] site = new long[1024];
    int[] offset = new int[1024];
    int[] size = new int[1024];
    /** Per fault: the index of its data name in {@link #dataNames}, or -1 (only in fault traces read from text). */
    int[] data;

    int syncs;
    long[] sTime = new long[256];
    int[] sProc = new int[256];
    byte[] sKind = new byte[256];
    int[] sBefore = new int[256];
    int[] sFirst = new int[257];
    int pairs;
    long[] pUnit = new long[1024];
    int[] pFault = new int[1024];
    final List<String> siteNames = new ArrayList<>();
    final List<String> dataNames = new ArrayList<>();
    private final Map<String, Integer> dataIndex = new HashMap<>();

    /** An empty trace of {@code processors} processors at the granularity of {@code unitSize}-byte units. */
    public FaultTrace(boolean lines, int unitSize, int processors) {
        this.lines = lines;
        this.unitSize = unitSize;
        this.processors = processors;
    }

    /** Number of faults. */
    public int faults() {
        return faults;
    }

    /** Number of synchronization records. */
    public int syncs() {
        return syncs;
    }

    /** Unit (page or line) of fault {@code f}. */
    public long unit(int f) {
        return unit[f];
    }

    /** Processor of fault {@code f}. */
    public int proc(int f) {
        return proc[f];
    }

    /** Time of fault {@code f}. */
    public long time(int f) {
        return time[f];
    }

    /** True if fault {@code f} is a write fault. */
    public boolean isWrite(int f) {
        return write[f];
    }

    /** "page" or "line". */
    public String unitName() {
        return lines ? "line" : "page";
    }

    @Override
    public void fault(int id, long t, int p, long u, boolean w, long addr, long s, int off, int sz) {
        if (faults == time.length) {
            int n = faults * 2;
            time = Arrays.copyOf(time, n);
            proc = Arrays.copyOf(proc, n);
            unit = Arrays.copyOf(unit, n);
            write = Arrays.copyOf(write, n);
            address = Arrays.copyOf(address, n);
            site = Arrays.copyOf(site, n);
            offset = Arrays.copyOf(offset, n);
            size = Arrays.copyOf(size, n);
            if (data != null) {
                data = Arrays.copyOf(data, n);
            }
        }
        time[faults] = t;
        proc[faults] = p;
        unit[faults] = u;
        write[faults] = w;
        address[faults] = addr;
        site[faults] = s;
        offset[faults] = off;
        size[faults] = sz;
        if (data != null) {
            data[faults] = -1;
        }
        faults++;
    }

    @Override
    public void sync(long t, int p, int kind, long[] units, int[] fs, int n) {
        if (syncs + 1 == sTime.length) {
            int m = sTime.length * 2;
            sTime = Arrays.copyOf(sTime, m);
            sProc = Arrays.copyOf(sProc, m);
            sKind = Arrays.copyOf(sKind, m);
            sBefore = Arrays.copyOf(sBefore, m);
            sFirst = Arrays.copyOf(sFirst, m + 1);
        }
        if (pairs + n > pUnit.length) {
            int m = Math.max(pUnit.length * 2, pairs + n);
            pUnit = Arrays.copyOf(pUnit, m);
            pFault = Arrays.copyOf(pFault, m);
        }
        sTime[syncs] = t;
        sProc[syncs] = p;
        sKind[syncs] = (byte) kind;
        sBefore[syncs] = faults;
        sFirst[syncs] = pairs;
        System.arraycopy(units, 0, pUnit, pairs, n);
        System.arraycopy(fs, 0, pFault, pairs, n);
        pairs += n;
        syncs++;
        sFirst[syncs] = pairs;
    }

    /**
     * The last fault's data: {@code name} (the field or element, as the data map describes it) at {@code
     * offsetInObject} bytes into its object.
     */
    void dataName(String name, long offsetInObject) {
        if (data == null) {
            data = new int[time.length];
            Arrays.fill(data, -1);
        }
        String d = name + " at offset " + offsetInObject;
        Integer i = dataIndex.get(d);
        if (i == null) {
            i = dataNames.size();
            dataNames.add(d);
            dataIndex.put(d, i);
        }
        data[faults - 1] = i;
    }

    /** Fault f's data as the trace names it ({@code long[1] at offset 24}), or null. */
    String dataName(int f) {
        return data == null || data[f] < 0 ? null : dataNames.get(data[f]);
    }

    @Override
    public void siteName(int i, String name) {
        while (siteNames.size() <= i) {
            siteNames.add(null);
        }
        siteNames.set(i, name);
    }
}
