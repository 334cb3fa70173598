package org.dsmscope.replay;

/**
 * A plug-in of the replay engine (SPEC §1, §4): CIAT, CDAT and EXPLAIN are analyses; one replay feeds any number
 * of them. Every callback has a no-op default so an analysis overrides only what it needs.
 *
 * <p>Threading: the engine calls an analysis from one thread, in the order of the replay's global pseudo clock
 * (smallest clock first, ties round-robin), so analyses need no locking ({@link Replay#runPartitioned} gives each
 * partition its own analysis instances, each called from that partition's thread). Objects passed in ({@link CallEvent},
 * {@link PhaseTimes}) may be reused by the engine after the callback returns: never keep a reference.
 *
 * <p>Identities: {@code thread} is the index of the trace file (thread or process) in the trace set;
 * {@code cpu} is the processor it runs on &mdash; the same as {@code thread} for thread traces, the scheduler's
 * choice with {@code -i p}. Communication and sharing are between processors ({@code cpu}).
 */
public interface Analysis {

    /**
     * Reason of a {@link #waited} interval: not active (a serial phase's other threads, threads not yet spawned or
     * ended before the phase, a process before its first and after its last slice with {@code -i}); booked as
     * {@link PhaseTimes#idle}.
     */
    int WAIT_IDLE = 0;
    /**
     * Reason of a {@link #waited} interval: waiting for other threads' progress (barrier, join, marker, condition
     * wait, latch), or ended or parked in a phase the thread took part in; booked as {@link PhaseTimes#imbalance}.
     */
    int WAIT_IMBALANCE = 1;
    /**
     * Reason of a {@link #waited} interval: waiting for a lock or an ordered section's turn; with {@code -i} ready
     * or held back by the synchronization order but not running; booked as {@link PhaseTimes#contention}.
     */
    int WAIT_CONTENTION = 2;
    /**
     * Reason of a {@link #waited} interval: blocked for disk I/O with {@code -handle_io} (thread traces), swapped
     * out for it ({@code -i}); booked as {@link PhaseTimes#idle} (with {@link #WAIT_IDLE}).
     */
    int WAIT_IO = 3;
    /** Number of wait reasons: they are 0 .. WAIT_REASONS - 1. */
    int WAIT_REASONS = 4;

    /**
     * True if this analysis splits its work over partitions of its own and would balance them with the prescan's
     * {@link ReplayContext#workProfile} (asked before the prescan; a partitioned replay counts it anyway).
     */
    default boolean wantsWorkProfile() {
        return false;
    }

    /** Called once before the first record. */
    default void begin(ReplayContext ctx) {
    }

    /** A phase begins (phase ids count from 1). */
    default void phaseBegin(Phase phase) {
    }

    /**
     * A data access (one memory-access instruction).
     *
     * @param clock   the thread's pseudo clock at this instruction
     * @param memType the record's type field ({@link org.dsmscope.trace.MemType}); size code 0 for wide records
     * @param size    bytes accessed (0 for a zero-byte store)
     * @param store   true for a store
     * @param address virtual address of the first byte
     */
    default void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
    }

    /** An instruction fetched: reconstructed from branch records (4 bytes), or a fetch extension record. */
    /**
     * Routed partitioned replay ({@link Replay#runRouted}): {@code count} data accesses of {@code thread} that this
     * partition was not given, at the place and clocks where the serial run delivers them (clocks {@code clock}
     * .. {@code clock + count - 1}), so that an analysis numbering the accesses keeps the serial numbers;
     * {@code bytes}: the bytes of these accesses (exactly where a marker may stop or resume all threads, whose
     * gaps are of one access size; else an even share of their gap's, the rest with its last piece).
     * Inside lockstep rounds one call counts the skipped accesses of several threads between two delivered ones
     * (thread and clock are then the first one's) and gives the bytes of the gaps ended since the last call, and at
     * the rounds' end of the parts run (count 0: bytes alone); so the bytes of the accesses a phase skips are given
     * within the phase (exactly where gaps are of one size), and those of a stopped thread's dropped accesses never.
     * Never called in other replays.
     */
    default void skipped(int thread, long clock, int count, long bytes) {
    }

    /**
     * Routed partitioned replay, a thread whose instruction stream is known (branch records, seed 000 §3; module
     * README "Threads with an instruction stream"): {@code count} data accesses this partition was not given, each
     * of which fetches one instruction word first, the i-th at {@code address + 4 i} and clock {@code clock + i},
     * then is skipped at that clock; {@code bytes} as for {@link #skipped}, shared evenly by the accesses. The
     * default makes exactly the serial run's calls, a {@link #fetch} of 4 bytes and a {@link #skipped} of one access
     * for each; an analysis for which the fetches of a run followed by the skipped accesses are the same may take
     * them at once.
     */
    default void skippedFetching(int thread, int cpu, long clock, long address, int count, long bytes) {
        for (int i = 0; i < count; i++) {
            fetch(thread, cpu, clock + i, address + (long) i * InstructionStream.WORD, InstructionStream.WORD);
            skipped(thread, clock + i, 1, i + 1 == count ? bytes - bytes / count * i : bytes / count);
        }
    }

    default void fetch(int thread, int cpu, long clock, long address, int size) {
    }

    /**
     * {@code count} consecutive instructions fetched (reconstructed from a branch record's gap, seed 000 §3), the
     * i-th at {@code address + 4 i} and clock {@code clock + i}: the same as that many {@link #fetch} calls of 4
     * bytes, which is what the default does; an analysis may take the run at once.
     */
    default void fetchRun(int thread, int cpu, long clock, long address, int count) {
        for (int i = 0; i < count; i++) {
            fetch(thread, cpu, clock + i, address + (long) i * InstructionStream.WORD, InstructionStream.WORD);
        }
    }

    /**
     * A branch record as read: {@code kind} is {@link org.dsmscope.trace.RecordKind#PROC_START},
     * {@link org.dsmscope.trace.RecordKind#BRANCH} or {@link org.dsmscope.trace.RecordKind#PROC_CALL}.
     */
    default void branch(int thread, int cpu, long clock, int kind, long source, long target) {
    }

    /** A call record, when the replay processes it (after any wait it implies). */
    default void call(int thread, int cpu, long clock, CallEvent call) {
    }

    /**
     * Disk I/O traffic, with {@code -handle_io} only (seed 000 Appendix B): a file read moves {@code bytes} bytes
     * from disk into the buffer at {@code address} (the I/O processor stores them), a write moves them out (it
     * loads them). {@code ioProcessor} is 0 for centered I/O, the processor's own I/O processor with {@code
     * -distributed_io} (see {@link ReplayContext#ioProcessors()}); {@code clock} is when the transfer completes
     * (thread traces) or when the call is replayed ({@code -i}). Called before the {@link #call} of the record.
     */
    default void io(int thread, int cpu, int ioProcessor, long clock, boolean read, long address, long bytes) {
    }

    /**
     * A thread's clock jumped over a wait: from {@code from} (inclusive) to {@code to} (exclusive) the thread (or
     * process) did no work, for {@code reason} ({@link #WAIT_IDLE}, {@link #WAIT_IMBALANCE}, {@link
     * #WAIT_CONTENTION} or {@link #WAIT_IO}). Called once per interval with {@code to > from}, in the usual
     * callback order: before the record that follows the wait is delivered, and within the phase the interval lies
     * in (a wait across a phase end comes as two intervals, the first before that {@link #phaseEnd}). Every clock
     * that {@link PhaseTimes} books as idle, imbalance or contention is in exactly one interval, so per thread the
     * intervals of a phase sum up to its times there (idle = {@code WAIT_IDLE} + {@code WAIT_IO}); one thread's
     * intervals never overlap and come in increasing order. {@code cpu} is the thread for thread traces; with
     * {@code -i}, the processor the process runs on after the wait (after its last slice: the one it ran on last).
     */
    default void waited(int thread, int cpu, long from, long to, int reason) {
    }

    /**
     * With {@code -i p} only: processor {@code cpu} runs no process from {@code from} to {@code to} (before its first
     * slice, between slices, waiting for a process another processor holds, after its last). Per processor the
     * intervals come in increasing order, and with the instructions its slices execute ({@link
     * ReplayContext#processorBusy}) they fill the run. ({@link #waited} intervals are the processes'.)
     */
    default void processorIdle(int cpu, long from, long to) {
    }

    /** A phase ends; {@code times} holds busy, idle, imbalance and contention per thread for the phase. */
    default void phaseEnd(Phase phase, PhaseTimes times) {
    }

    /** The replay is complete; {@code total} holds the times summed over all phases. */
    default void end(ReplayContext ctx, PhaseTimes total) {
    }
}
