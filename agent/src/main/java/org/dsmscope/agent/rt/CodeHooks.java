package org.dsmscope.agent.rt;

import org.dsmscope.agent.core.Sites;
import org.dsmscope.agent.core.ThreadTrace;
import org.dsmscope.agent.core.TraceRuntime;

/**
 * Level 3 entry points (seed 000 §2 level 3, A.3): procedure start, procedure call and taken-branch records over
 * the synthetic code address space (each method a range, each bytecode instruction a 4-byte slot; a branch
 * record's first field holds the branch's slot + 4). Returns are taken branches from the return's slot + 4 to
 * the instruction after the call, recorded by the caller when the call returns.
 */
public final class CodeHooks {
    private CodeHooks() {
    }

    /** Procedure start at {@code base}. */
    public static void enter(int base) {
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.retSrc = 0;
            t.raw(0x40000000, base);
        }
    }

    /** Procedure call at slot {@code src - 4} to the method named by call site {@code site}. */
    public static void call(int src, int site) {
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.branch(0xC, src, target(site));
            t.retSrc = 0;
        }
    }

    private static int target(int site) {
        long v = Sites.value(site);
        if (v == 0) {
            try {
                v = Sites.methodAddress((String) Sites.info(site));
            } catch (Throwable e) {
                v = 0;
            }
            Sites.setValue(site, v);
        }
        return (int) v;
    }

    /** The call at slot {@code src - 4} returned: the return branch back to {@code src}. */
    public static void returned(int src, int site) {
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            int from = t.retSrc != 0 ? t.retSrc : target(site) + 4;
            t.retSrc = 0;
            t.branch(0x8, from, src);
        }
    }

    /** A return instruction at slot {@code src - 4} is about to execute. */
    public static void ret(int src) {
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.retSrc = src;
        }
    }

    /** An unconditional branch (goto). */
    public static void jump(int src, int dst) {
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.branch(0x8, src, dst);
        }
    }

    private static void taken(boolean cond, int src, int dst) {
        if (cond) {
            ThreadTrace t = TraceRuntime.current();
            if (t.detailed) {
                t.branch(0x8, src, dst);
            }
        }
    }

    /** ifeq. */
    public static void ifeq(int v, int src, int dst) {
        taken(v == 0, src, dst);
    }

    /** ifne. */
    public static void ifne(int v, int src, int dst) {
        taken(v != 0, src, dst);
    }

    /** iflt. */
    public static void iflt(int v, int src, int dst) {
        taken(v < 0, src, dst);
    }

    /** ifge. */
    public static void ifge(int v, int src, int dst) {
        taken(v >= 0, src, dst);
    }

    /** ifgt. */
    public static void ifgt(int v, int src, int dst) {
        taken(v > 0, src, dst);
    }

    /** ifle. */
    public static void ifle(int v, int src, int dst) {
        taken(v <= 0, src, dst);
    }

    /** if_icmpeq. */
    public static void icmpeq(int a, int b, int src, int dst) {
        taken(a == b, src, dst);
    }

    /** if_icmpne. */
    public static void icmpne(int a, int b, int src, int dst) {
        taken(a != b, src, dst);
    }

    /** if_icmplt. */
    public static void icmplt(int a, int b, int src, int dst) {
        taken(a < b, src, dst);
    }

    /** if_icmpge. */
    public static void icmpge(int a, int b, int src, int dst) {
        taken(a >= b, src, dst);
    }

    /** if_icmpgt. */
    public static void icmpgt(int a, int b, int src, int dst) {
        taken(a > b, src, dst);
    }

    /** if_icmple. */
    public static void icmple(int a, int b, int src, int dst) {
        taken(a <= b, src, dst);
    }

    /** if_acmpeq. */
    public static void acmpeq(Object a, Object b, int src, int dst) {
        taken(a == b, src, dst);
    }

    /** if_acmpne. */
    public static void acmpne(Object a, Object b, int src, int dst) {
        taken(a != b, src, dst);
    }

    /** ifnull. */
    public static void isnull(Object a, int src, int dst) {
        taken(a == null, src, dst);
    }

    /** ifnonnull. */
    public static void nonnull(Object a, int src, int dst) {
        taken(a != null, src, dst);
    }

    /**
     * tableswitch / lookupswitch on {@code key}; the site holds {0, src, default, low, targets...} or
     * {1, src, default, key0, target0, key1, target1...}. Every switch is a taken branch.
     */
    public static void switchOn(int key, int site) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.detailed) {
            return;
        }
        int[] s = (int[]) Sites.info(site);
        int dst = s[2];
        if (s[0] == 0) {
            long i = (long) key - s[3];
            if (i >= 0 && i < s.length - 4) {
                dst = s[4 + (int) i];
            }
        } else {
            for (int i = 3; i + 1 < s.length; i += 2) {
                if (s[i] == key) {
                    dst = s[i + 1];
                    break;
                }
            }
        }
        t.branch(0x8, s[1], dst);
    }
}
