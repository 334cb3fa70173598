package org.dsmscope.trace;

/**
 * Call types of seed 000 Table 4 (the two hex digits {@code xx} of {@code 00001xxN}) and dsmscope's
 * documented extensions for calls the seed lacks (SPEC §2, §3). The numbers are hex digit pairs, as in the seed.
 *
 * <p>Argument use (argument fields the seed leaves unused are 0 unless listed):
 * <ul>
 * <li>{@link #SPAWN}: arg1 parallel-region number, arg2 number of spawned threads, arg3 child thread index.
 * <li>{@link #JOIN}: arg3 joined thread index.
 * <li>{@link #BARRIER}: arg1 address of the synchronization variable, arg2 number of threads (parties).
 * <li>{@link #BEGIN_CRITICAL}/{@link #END_CRITICAL}: arg1 lock address; arg2 1 for the shared (read) mode of a
 * read-write lock (extension; 0 in the seed's records: exclusive); arg3 of a begin, the acquisition's sequence number
 * on the lock, 1, 2, … in the order the run took it (extension, SPEC §3; 0 in the seed's records: not recorded).
 * <li>{@link #MARKER}: arg1 command 0&ndash;4, arg2 user number.
 * <li>{@link #FILE_READ}/{@link #FILE_WRITE}: arg1 buffer address, arg2 bytes moved, arg3 file handle.
 * <li>{@link #LDCW}: arg1 address. {@link #SEMOP}: semaphore id, number, operation, flags.
 * {@link #SEMCTL}: semaphore id, number, command, value. {@link #SYSCALL}: arg1 system call id.
 * <li>{@link #END_TRACE}: arg2 1 (extension) if the program ended while the thread was still running (the agent
 * closed its trace at the exit), else 0; arg3 the thread's index (the agent's traces).
 * <li>{@link #THREAD_END} (extension): arg3 the ending thread's index.
 * <li>{@link #COND_WAIT} (extension): arg1 condition/monitor address, arg2 the per-object sequence number of the
 * wake-up that ended the wait (0 if it timed out or none), arg3 1 if timed out.
 * <li>{@link #COND_WAKE} (extension): arg1 condition/monitor address, arg2 per-object sequence number of this
 * wake-up, arg3 1 for notify-all.
 * <li>{@link #SYNC_RELEASE} (extension, latch countDown / semaphore release): arg1 object address, arg2 per-object
 * sequence number, arg3 permits or count released.
 * <li>{@link #SYNC_ACQUIRE} (extension, latch await / semaphore acquire): arg1 object address, arg2 the sequence
 * number of the release that let it pass (0 if none was needed), arg3 permits.
 * <li>{@link #TURN_RELEASE} / {@link #TURN_ACQUIRE} (extension, a recorded interleaving such as Valgrind's
 * scheduler switches): arg1 the low and arg2 the high 32 bits of the turn number (1, 2, ... per trace set); the
 * thread that stops running releases turn n, the thread that runs next acquires it, and the replay lets no thread
 * pass its acquire of turn n before turn n was released.
 * <li>{@link #SYNC_RANGE} (extension, a declaration, not an operation): arg1 the low and arg2 the high 32 bits of
 * an address, arg3 a byte count (1..65536): an access that starts at one of those bytes is to a synchronization
 * variable (left out of communication, seed 001 §5.1), as argument 1 of a lock record is.
 * </ul>
 */
public final class CallType {
    /** Thread spawn, cps_spawn. */
    public static final int SPAWN = 0x01;
    /** Thread join, cps_join. */
    public static final int JOIN = 0x02;
    /** Barrier synchronization. */
    public static final int BARRIER = 0x03;
    /** Begin ordered section, cps_begin_order. */
    public static final int BEGIN_ORDER = 0x04;
    /** End ordered section, cps_end_order. */
    public static final int END_ORDER = 0x05;
    /** Begin critical section, cps_begin_critical. */
    public static final int BEGIN_CRITICAL = 0x06;
    /** End critical section, cps_end_critical. */
    public static final int END_CRITICAL = 0x07;
    /** Marker, used in the high-level source code. */
    public static final int MARKER = 0x10;
    /** File read. */
    public static final int FILE_READ = 0x11;
    /** File write. */
    public static final int FILE_WRITE = 0x12;
    /** Load and clear word, ldcw (atomic read-modify-write). */
    public static final int LDCW = 0x13;
    /** Semaphore operation, semop. */
    public static final int SEMOP = 0x14;
    /** Semaphore control operation, semctl. */
    public static final int SEMCTL = 0x15;
    /** Generic system call. */
    public static final int SYSCALL = 0x16;
    /** Start trace record. */
    public static final int START_TRACE = 0x17;
    /** End trace record. */
    public static final int END_TRACE = 0x18;
    /** Extension: thread end. */
    public static final int THREAD_END = 0x20;
    /** Extension: condition wait (Object.wait, Condition.await). */
    public static final int COND_WAIT = 0x21;
    /** Extension: condition wake-up (notify, notifyAll, signal, signalAll). */
    public static final int COND_WAKE = 0x22;
    /** Extension: release-type operation (CountDownLatch.countDown, Semaphore.release). */
    public static final int SYNC_RELEASE = 0x23;
    /** Extension: acquire-type operation (CountDownLatch.await, Semaphore.acquire). */
    public static final int SYNC_ACQUIRE = 0x24;
    /** Extension: the running thread gives up its turn n of a recorded interleaving (a scheduler switch). */
    public static final int TURN_RELEASE = 0x25;
    /** Extension: the thread that runs next takes turn n of a recorded interleaving. */
    public static final int TURN_ACQUIRE = 0x26;
    /** Extension: declares an address range whose accesses are synchronization (lock words named on an import). */
    public static final int SYNC_RANGE = 0x27;
    /** Most bytes one {@link #SYNC_RANGE} record declares. */
    public static final long SYNC_RANGE_MAX = 65536;
    /**
     * Not a trace-file record: the on-the-fly hint that a thread has begun an untimed join of thread arg3 (start:
     * the join's start, µs) and that its join record follows once the join returns. The agent puts it only in the
     * streams of an on-the-fly analysis, whose readers accept it ({@code TraceReader.Options.liveHints}), so that
     * the replay can let the joining thread wait and go on with the others while the program still runs (agent
     * README "On-the-fly analysis"). Every other reader rejects it as an unknown call type.
     */
    public static final int LIVE_JOIN = 0x30;
    /**
     * Not a trace-file record: in a routed partitioned replay's stream (replay/README.md "Partitioned replay"),
     * arg1 data accesses of the thread that this partition does not get, of arg2 + 2^32 arg3 bytes in all. Only the
     * replay's own routed readers accept it ({@code TraceReader.Options.routedGaps}); every other reader rejects it
     * as an unknown call type.
     */
    public static final int ROUTED_GAP = 0x31;
    /**
     * Not a trace-file record: in a routed partitioned replay's stream, the record that follows (or the stream's
     * end) is at byte offset arg1 + 2^32 arg2 of the trace file, so that a routed partition names the trace file's
     * positions in its messages ({@code TraceReader#offset}). The routed readers take it in without returning it;
     * every other reader rejects it as an unknown call type.
     */
    public static final int ROUTED_AT = 0x32;

    private static final String[] NAMES = new String[256];

    static {
        NAMES[SPAWN] = "spawn";
        NAMES[JOIN] = "join";
        NAMES[BARRIER] = "barrier";
        NAMES[BEGIN_ORDER] = "begin_order";
        NAMES[END_ORDER] = "end_order";
        NAMES[BEGIN_CRITICAL] = "begin_critical";
        NAMES[END_CRITICAL] = "end_critical";
        NAMES[MARKER] = "marker";
        NAMES[FILE_READ] = "file_read";
        NAMES[FILE_WRITE] = "file_write";
        NAMES[LDCW] = "ldcw";
        NAMES[SEMOP] = "semop";
        NAMES[SEMCTL] = "semctl";
        NAMES[SYSCALL] = "syscall";
        NAMES[START_TRACE] = "start_trace";
        NAMES[END_TRACE] = "end_trace";
        NAMES[THREAD_END] = "thread_end";
        NAMES[COND_WAIT] = "cond_wait";
        NAMES[COND_WAKE] = "cond_wake";
        NAMES[SYNC_RELEASE] = "sync_release";
        NAMES[SYNC_ACQUIRE] = "sync_acquire";
        NAMES[TURN_RELEASE] = "turn_release";
        NAMES[TURN_ACQUIRE] = "turn_acquire";
        NAMES[SYNC_RANGE] = "sync_range";
    }

    private CallType() {
    }

    /** True for the types of Table 4 and the extensions above. */
    public static boolean isKnown(int type) {
        return type >= 0 && type < NAMES.length && NAMES[type] != null;
    }

    /** True for the extension types (not in seed 000 Table 4). */
    public static boolean isExtension(int type) {
        return type >= THREAD_END && isKnown(type);
    }

    /** The name {@code dump} prints, or {@code type_XX} for an unknown type. */
    public static String name(int type) {
        if (isKnown(type)) {
            return NAMES[type];
        }
        if (type == LIVE_JOIN) {
            return "live_join";
        }
        return String.format("type_%02x", type & 0xff);
    }

    /** Parses a name printed by {@link #name(int)}; -1 if unknown. */
    public static int byName(String name) {
        for (int i = 0; i < NAMES.length; i++) {
            if (name.equals(NAMES[i])) {
                return i;
            }
        }
        return -1;
    }

    /** Argument 1 (low half) and argument 2 (high half) of a turn or sync-range record as one 64-bit value. */
    public static long wide(long arg1, long arg2) {
        return (arg2 << 32) | (arg1 & 0xFFFFFFFFL);
    }

    /** Synchronization calls whose argument 1 is a synchronization variable (left out of communication). */
    public static boolean hasSyncVariable(int type) {
        switch (type) {
            case BARRIER: case BEGIN_CRITICAL: case END_CRITICAL: case LDCW:
            case COND_WAIT: case COND_WAKE: case SYNC_RELEASE: case SYNC_ACQUIRE:
                return true;
            default:
                return false;
        }
    }
}
