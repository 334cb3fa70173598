package org.dsmscope.replay;

/**
 * Instruction-stream reconstruction from branch records (seed 000 §3). One program counter per thread, set by a
 * procedure start and by a branch's target; each memory-access record is one instruction word at the program
 * counter; at a taken branch or procedure call the counter steps one word at a time, fetching each, until it
 * reaches the record's source (the branch address + 4), then jumps to the target. Seed example: procedure start
 * 4C00, three memory records, branch {@code 80004C18 00004D20} fetch 4C00&ndash;4C14 (six instructions) and leave
 * the counter at 4D20.
 *
 * <p>Choices the seed leaves open: before the first procedure start or branch target the counter is unknown and
 * nothing is fetched for memory records; a source below the counter, or more than {@link #MAX_GAP} words above it
 * (the trace lost its place, e.g. a return through an untraced routine), fetches nothing and just resynchronizes.
 */
public final class InstructionStream {
    /** Bytes of one instruction word (PA-RISC and the agent's synthetic code space). */
    public static final int WORD = 4;
    /** Largest number of words fetched to close one gap. */
    public static final long MAX_GAP = 1 << 16;

    private InstructionStream() {
    }

    /** Instructions fetched from {@code pc} up to (excluding) {@code source}; 0 if the counter is unknown. */
    public static long gap(boolean pcValid, long pc, long source) {
        if (!pcValid || source <= pc) {
            return 0;
        }
        long n = (source - pc + WORD - 1) / WORD;
        return n > MAX_GAP ? 0 : n;
    }
}
