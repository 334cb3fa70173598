package org.dsmscope.agent.rt;

import org.dsmscope.agent.core.Addresses;
import org.dsmscope.agent.core.Layouts;
import org.dsmscope.agent.core.Sites;
import org.dsmscope.agent.core.ThreadTrace;
import org.dsmscope.agent.core.TraceRuntime;

/**
 * Level 2 entry points of the JDK's own {@code java.util} and {@code java.util.concurrent} classes with
 * {@code jdk=true} (issue 28; seed 000 §2 level 2, SPEC §3 address model): the field and array accesses inside a
 * queue, a map or a future, so that the data they hand from thread to thread is traced like the program's own.
 *
 * <p>Unlike {@link MemHooks}, every entry point first checks the calling thread's "in agent" mark
 * ({@link ThreadTrace#inHook}) and sets it while it records: the agent's own use of these classes (its maps and
 * lists, its writers, the class rewriting) is never traced and never calls back into itself. The agent's own
 * threads have no trace and record nothing. Array accesses are recorded just before they happen, with the
 * program's bounds (an access that throws is not recorded); nothing is allocated per access.
 */
public final class JdkMemHooks {
    /** Memory type per array kind ({@link Layouts#kindOf} order: boolean, byte, char, short, int, float, long, double, reference). */
    private static final int[] TYPE = {0x010, 0x010, 0x020, 0x020, 0x040, 0x140, 0x080, 0x180,
        Layouts.refBytes == 8 ? 0x080 : 0x040};
    private static final long[] BASE = new long[9];
    private static final long[] SCALE = new long[9];

    static {
        for (int k = 0; k < 9; k++) {
            BASE[k] = Layouts.base(k);
            SCALE[k] = Layouts.scale(k);
        }
    }

    private JdkMemHooks() {
    }

    /**
     * Element {@code i} of array {@code a} is about to be accessed; {@code code} is the array kind ({@link
     * Layouts#kindOf}) times 2, plus 1 for a store.
     */
    public static void element(Object a, int i, int code) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.detailed || t.inHook || a == null || i < 0 || i >= java.lang.reflect.Array.getLength(a)) {
            return;
        }
        int k = code >> 1;
        t.inHook = true;
        try {
            t.mem(TYPE[k] | (code & 1), Addresses.of(a, t) + BASE[k] + (long) i * SCALE[k]);
        } finally {
            t.inHook = false;
        }
    }

    /** Instance field access (getfield/putfield) on {@code o}, just before it happens. */
    public static void field(Object o, int site) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.detailed || t.inHook || o == null) {
            return;
        }
        t.inHook = true;
        try {
            long off = Sites.value(site) - 1;
            if (off < 0) {
                off = MemHooks.resolveField(o, site);
            }
            t.mem(Sites.type(site), Addresses.of(o, t) + off);
        } finally {
            t.inHook = false;
        }
    }

    /**
     * A new array of JDK code, or one about to be stored in an array field of a JDK class: its address (unless it
     * has one), with its site and name ({@code NAME\nSITE}: {@code ArrayBlockingQueue.items}).
     */
    public static void alloc(Object o, int site) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced || t.inHook || o == null) {
            return;
        }
        t.inHook = true;
        try {
            Object info = Sites.info(site);
            Addresses.allocated(o, t, info instanceof String ? (String) info : "-");
        } catch (Throwable e) {
            // never disturb the program: the array gets an address on first access instead
        } finally {
            t.inHook = false;
        }
    }

    /** A {@code jdk.internal.misc.Unsafe} access of {@code o} at {@code offset}, just before it (static: none). */
    public static void unsafe(Object o, long offset, int type) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.detailed || t.inHook || o == null || o instanceof Class) {
            return;
        }
        t.inHook = true;
        try {
            t.mem(type, Addresses.of(o, t) + offset);
        } finally {
            t.inHook = false;
        }
    }

    /** The write of a {@code VarHandle} compare-and-set or -exchange on a field, if {@code ok} (it succeeded). */
    public static void fieldIf(boolean ok, Object o, int site) {
        if (ok) {
            field(o, site);
        }
    }

    /** The write of a {@code VarHandle} compare-and-set or -exchange on an array element, if {@code ok}. */
    public static void elementIf(boolean ok, Object a, int i, int code) {
        if (ok) {
            element(a, i, code);
        }
    }

    /** True if a {@code compareAndExchange}'s witness is its expected value (it exchanged). */
    public static boolean same(Object witness, Object expected) {
        return witness == expected;
    }

    /** True if a {@code compareAndExchange}'s witness is its expected value (it exchanged). */
    public static boolean same(int witness, int expected) {
        return witness == expected;
    }

    /** True if a {@code compareAndExchange}'s witness is its expected value (it exchanged). */
    public static boolean same(long witness, long expected) {
        return witness == expected;
    }

    /** True if a {@code compareAndExchange}'s witness is its expected value (bitwise, as the handle compares). */
    public static boolean same(float witness, float expected) {
        return Float.floatToRawIntBits(witness) == Float.floatToRawIntBits(expected);
    }

    /** True if a {@code compareAndExchange}'s witness is its expected value (bitwise, as the handle compares). */
    public static boolean same(double witness, double expected) {
        return Double.doubleToRawLongBits(witness) == Double.doubleToRawLongBits(expected);
    }

    /** The write of an {@code Unsafe.compareAndSet*} that succeeded. */
    public static void casDone(boolean ok, Object o, long offset, int type) {
        if (ok) {
            unsafe(o, offset, type);
        }
    }
}
