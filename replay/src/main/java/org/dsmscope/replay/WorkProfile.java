package org.dsmscope.replay;

/**
 * How a trace set's records spread over threads and addresses, counted by the prescan for a partitioned run
 * (SPEC §4 "per-address analyses run in parallel partitions"): the data accesses of every thread, those that
 * start in each of {@link #SLOTS} page slots (4 KiB page number mod {@value #SLOTS}), the other records, and which
 * 4 KiB pages only one thread was seen to touch (its private pages) with the accesses they got.
 * An analysis that splits its per-thread and per-address state over partitions uses it to give each partition a
 * like share of the work ({@link ReplayContext#workProfile}); every partition sees the same profile, so they all
 * derive the same split. The counts are estimates, made at almost no cost to the prescan, which skips runs of
 * data-access, branch and fetch records without decoding them: of those runs every {@value #STRIDE}th record of a
 * thread is looked at and counts {@value #STRIDE} times (a thread whose runs hold only data accesses is counted to
 * within {@value #STRIDE}); records outside runs count once. The pages come from the same looks: each thread's
 * scan counts the pages it saw (at most {@link #PAGE_CAP} / threads of them, at least 4,096), and after the scan
 * the threads' pages are merged in thread order (whatever the number of prescan workers) into the pages seen by one
 * thread only (at most {@link #PAGE_CAP} pages in all, shared ones included). A page past a cap, or touched only
 * by records that were not looked at, is unknown: it may look private though another thread touches it, which
 * costs an analysis balance, never exactness (every partition derives the same owner from the same profile).
 * Read-only once made; serializable (a cluster's tasks get it with the replay's plan).
 */
public final class WorkProfile implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Number of page slots. */
    public static final int SLOTS = 1024;
    /** One record in this many of the prescan's runs is looked at. */
    public static final int STRIDE = 8;

    /** Most pages whose toucher the profile keeps (unknown beyond; each thread's scan keeps a share of them). */
    public static final int PAGE_CAP = 1 << 22;
    /** Fewest pages each thread's scan keeps whatever the number of threads. */
    private static final int THREAD_PAGES_MIN = 1 << 12;

    private final long[] threadAccesses;
    private final long[] slotAccesses = new long[SLOTS];
    private long otherRecords;
    /** Records of the current thread's runs to pass over before the next one looked at. */
    private int skip;
    /** During the scan: per thread, the accesses looked at per page (null when it has none yet). */
    private transient LongIntMap[] pages;
    /** The page of the accesses looked at last and not yet entered in {@link #pages}, their thread and number. */
    private transient long lastPage = -1;
    private transient int lastThread;
    private transient long pending;
    /** After the scan: pages only one thread was seen to touch, each to that thread (null: none known). */
    private LongIntMap privatePages;
    /** Per thread: accesses to its private pages. */
    private long[] privateAccesses;
    /** Per page slot: accesses to pages of the slot that are not private (null: all of {@link #slotAccesses}). */
    private long[] sharedSlotAccesses;

    /** Most pages whose toucher this profile keeps ({@link #PAGE_CAP} but in tests). */
    private final int pageCap;

    WorkProfile(int threads) {
        this(threads, PAGE_CAP);
    }

    /** A profile that keeps the toucher of at most {@code pageCap} pages. */
    WorkProfile(int threads, int pageCap) {
        threadAccesses = new long[threads];
        privateAccesses = new long[threads];
        this.pageCap = pageCap;
    }

    /** A profile of the given counts (tests and callers with counts of their own). */
    public static WorkProfile of(long[] threadAccesses, long[] slotAccesses, long otherRecords) {
        if (slotAccesses.length != SLOTS) {
            throw new IllegalArgumentException("slot counts: " + slotAccesses.length + ", not " + SLOTS);
        }
        WorkProfile p = new WorkProfile(threadAccesses.length);
        System.arraycopy(threadAccesses, 0, p.threadAccesses, 0, threadAccesses.length);
        System.arraycopy(slotAccesses, 0, p.slotAccesses, 0, SLOTS);
        p.otherRecords = otherRecords;
        return p;
    }

    /**
     * A profile of the given counts whose pages {@code privatePages[i]} were touched by thread {@code pageThreads[i]}
     * only, {@code pageAccesses[i]} times (among {@code slotAccesses}); tests and callers with counts of their own.
     */
    public static WorkProfile of(long[] threadAccesses, long[] slotAccesses, long otherRecords, long[] privatePages,
            int[] pageThreads, long[] pageAccesses) {
        if (privatePages.length != pageThreads.length || privatePages.length != pageAccesses.length) {
            throw new IllegalArgumentException("private pages: " + privatePages.length + " pages, "
                    + pageThreads.length + " threads, " + pageAccesses.length + " counts");
        }
        WorkProfile p = of(threadAccesses, slotAccesses, otherRecords);
        p.privatePages = new LongIntMap(privatePages.length);
        p.sharedSlotAccesses = slotAccesses.clone();
        for (int i = 0; i < privatePages.length; i++) {
            int t = pageThreads[i];
            if (t < 0 || t >= threadAccesses.length || pageAccesses[i] < 0 || privatePages[i] < 0
                    || p.privatePages.get(privatePages[i]) >= 0) {
                throw new IllegalArgumentException("private page " + privatePages[i] + " of thread " + t);
            }
            p.privatePages.put(privatePages[i], t);
            p.privateAccesses[t] += pageAccesses[i];
            p.sharedSlotAccesses[(int) privatePages[i] & (SLOTS - 1)] -= pageAccesses[i];
        }
        return p;
    }

    /** The slot of the page holding {@code address}. */
    public static int slotOf(long address) {
        return (int) (address >>> 12) & (SLOTS - 1);
    }

    /** Number of threads (trace files). */
    public int threads() {
        return threadAccesses.length;
    }

    /** Data accesses of thread {@code t} (estimated). */
    public long threadAccesses(int t) {
        return threadAccesses[t];
    }

    /** Data accesses whose first byte lies on a page of slot {@code s} (estimated). */
    public long slotAccesses(int s) {
        return slotAccesses[s];
    }

    /** The thread that alone was seen to touch 4 KiB page {@code page} (its private page), or -1. */
    public int privateThread(long page) {
        LongIntMap m = privatePages;
        return m == null ? -1 : m.get(page);
    }

    /** Number of pages known to be private to one thread. */
    public int privatePages() {
        return privatePages == null ? 0 : privatePages.size();
    }

    /** A private page and its thread ({@link #forEachPrivatePage}). */
    public interface PageThread {
        /** Page {@code page} is private to thread {@code thread}. */
        void accept(long page, int thread);
    }

    /** Calls {@code f} with every private page and its thread, in an order fixed by the profile. */
    public void forEachPrivatePage(PageThread f) {
        if (privatePages != null) {
            privatePages.forEach(f::accept);
        }
    }

    /** Data accesses of thread {@code t} to its private pages (estimated). */
    public long privateAccesses(int t) {
        return privateAccesses[t];
    }

    /** Data accesses whose first byte lies on a page of slot {@code s} that is not private to one thread. */
    public long sharedSlotAccesses(int s) {
        return sharedSlotAccesses == null ? slotAccesses[s] : sharedSlotAccesses[s];
    }

    /** Records other than data accesses: calls, branch, procedure and fetch records (estimated). */
    public long otherRecords() {
        return otherRecords;
    }

    /** Counts {@code n} raw words of thread {@code t} ({@link org.dsmscope.trace.TraceReader#nextRun}). */
    void countRun(int t, long[] words, int from, int n, long high) {
        long[] slots = slotAccesses;
        int end = from + n;
        int i = from + skip;
        long data = 0;
        for (; i < end; i += STRIDE) {
            long w = words[i];
            if ((w >>> 56) == 0) {
                // a data access (top byte 0: TraceReader.wordKind); the low 32 bits hold the address's low half
                // (bits 12..21 the page slot), high its upper half
                long page = (high | (w & 0xFFFFFFFFL)) >>> 12;
                slots[(int) page & (SLOTS - 1)] += STRIDE;
                data += STRIDE;
                if (page != lastPage || t != lastThread) {
                    enterPage();
                    lastPage = page;
                    lastThread = t;
                }
                pending += STRIDE;
            } else {
                otherRecords += STRIDE;
            }
        }
        threadAccesses[t] += data;
        skip = i - end;
    }

    /** Counts one record read by {@link org.dsmscope.trace.TraceReader#next}. */
    void count(int t, int kind, long address) {
        if (kind == org.dsmscope.trace.RecordKind.MEMORY) {
            slotAccesses[slotOf(address)]++;
            threadAccesses[t]++;
            long page = address >>> 12;
            if (page != lastPage || t != lastThread) {
                enterPage();
                lastPage = page;
                lastThread = t;
            }
            pending++;
        } else {
            otherRecords++;
        }
    }

    /** Enters the accesses looked at on {@link #lastPage} in its thread's pages (within the thread's cap). */
    private void enterPage() {
        if (pending == 0) {
            return;
        }
        if (pages == null) {
            pages = new LongIntMap[threadAccesses.length];
        }
        LongIntMap m = pages[lastThread];
        if (m == null) {
            m = pages[lastThread] = new LongIntMap(64);
        }
        int cap = Math.max(Math.min(THREAD_PAGES_MIN, pageCap), pageCap / threadAccesses.length);
        if (m.size() < cap || m.get(lastPage) >= 0) {
            m.add(lastPage, (int) Math.min(Integer.MAX_VALUE, pending));
        }
        pending = 0;
    }

    /**
     * The end of the scan: the threads' pages, merged in thread order, give the private pages, each thread's
     * accesses to them and each slot's accesses to the other pages.
     */
    void resolvePages() {
        enterPage();
        int n = threadAccesses.length;
        LongIntMap[] seen = pages == null ? new LongIntMap[n] : pages;
        pages = null;
        // page -> its one thread, or n: several
        LongIntMap toucher = new LongIntMap(1024);
        for (int t = 0; t < n; t++) {
            if (seen[t] == null) {
                continue;
            }
            int me = t;
            seen[t].forEach((page, c) -> {
                int o = toucher.get(page);
                if (o < 0 && toucher.size() < pageCap) {
                    toucher.put(page, me);
                } else if (o >= 0 && o != me) {
                    toucher.put(page, n);
                }
            });
        }
        long[] priv = new long[n];
        long[] shared = slotAccesses.clone();
        for (int t = 0; t < n; t++) {
            if (seen[t] == null) {
                continue;
            }
            int me = t;
            seen[t].forEach((page, c) -> {
                if (toucher.get(page) == me) {
                    priv[me] += c;
                    shared[(int) page & (SLOTS - 1)] -= c;
                }
            });
        }
        LongIntMap one = new LongIntMap(64);
        toucher.forEach((page, o) -> {
            if (o < n) {
                one.put(page, o);
            }
        });
        privatePages = one;
        privateAccesses = priv;
        sharedSlotAccesses = shared;
    }

    /** Adds the counts of {@code other} (of other threads' traces) to these. */
    void add(WorkProfile other) {
        other.enterPage();
        for (int t = 0; t < threadAccesses.length; t++) {
            threadAccesses[t] += other.threadAccesses[t];
            if (other.pages != null && other.pages[t] != null) {
                if (pages == null) {
                    pages = new LongIntMap[threadAccesses.length];
                }
                pages[t] = other.pages[t];
            }
        }
        for (int s = 0; s < SLOTS; s++) {
            slotAccesses[s] += other.slotAccesses[s];
        }
        otherRecords += other.otherRecords;
    }

    /** Starts the counts of the next thread. */
    void nextThread() {
        enterPage();
        skip = 0;
    }
}
