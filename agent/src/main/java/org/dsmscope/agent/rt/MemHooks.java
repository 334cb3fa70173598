package org.dsmscope.agent.rt;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.dsmscope.agent.core.Addresses;
import org.dsmscope.agent.core.Layouts;
import org.dsmscope.agent.core.Sites;
import org.dsmscope.agent.core.ThreadTrace;
import org.dsmscope.agent.core.TraceRuntime;

/**
 * Level 2 entry points (seed 000 §2 level 2, SPEC §3 address model): every field and array load and store of
 * instrumented code. Array loads and stores are replaced by these methods, which perform the access and then
 * record it (so exceptions are the program's own); field hooks run just before the access. Static methods, int
 * site ids, per-thread buffers, nothing allocated per access.
 */
public final class MemHooks {
    private static final long BASE_C = Layouts.base(2);
    private static final long SCALE_C = Layouts.scale(2);
    private static final long BASE_S = Layouts.base(3);
    private static final long SCALE_S = Layouts.scale(3);
    private static final long BASE_I = Layouts.base(4);
    private static final long SCALE_I = Layouts.scale(4);
    private static final long BASE_F = Layouts.base(5);
    private static final long SCALE_F = Layouts.scale(5);
    private static final long BASE_L = Layouts.base(6);
    private static final long SCALE_L = Layouts.scale(6);
    private static final long BASE_D = Layouts.base(7);
    private static final long SCALE_D = Layouts.scale(7);
    private static final long BASE_Z = Layouts.base(0);
    private static final long BASE_B = Layouts.base(1);
    private static final long BASE_A = Layouts.base(8);
    private static final long SCALE_A = Layouts.scale(8);
    private static final int LOAD_REF = Layouts.refBytes == 8 ? 0x080 : 0x040;
    private static final int STORE_REF = LOAD_REF | 1;

    private MemHooks() {
    }

    /** char array load (caload): loads, then records. */
    public static char caload(char[] a, int i) {
        char v = a[i];
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x020, Addresses.of(a, t) + BASE_C + (long) i * SCALE_C);
        }
        return v;
    }

    /** char array store (castore): stores, then records. */
    public static void castore(char[] a, int i, char v) {
        a[i] = v;
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x021, Addresses.of(a, t) + BASE_C + (long) i * SCALE_C);
        }
    }

    /** short array load (saload): loads, then records. */
    public static short saload(short[] a, int i) {
        short v = a[i];
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x020, Addresses.of(a, t) + BASE_S + (long) i * SCALE_S);
        }
        return v;
    }

    /** short array store (sastore): stores, then records. */
    public static void sastore(short[] a, int i, short v) {
        a[i] = v;
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x021, Addresses.of(a, t) + BASE_S + (long) i * SCALE_S);
        }
    }

    /** int array load (iaload): loads, then records. */
    public static int iaload(int[] a, int i) {
        int v = a[i];
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x040, Addresses.of(a, t) + BASE_I + (long) i * SCALE_I);
        }
        return v;
    }

    /** int array store (iastore): stores, then records. */
    public static void iastore(int[] a, int i, int v) {
        a[i] = v;
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x041, Addresses.of(a, t) + BASE_I + (long) i * SCALE_I);
        }
    }

    /** float array load (faload): loads, then records. */
    public static float faload(float[] a, int i) {
        float v = a[i];
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x140, Addresses.of(a, t) + BASE_F + (long) i * SCALE_F);
        }
        return v;
    }

    /** float array store (fastore): stores, then records. */
    public static void fastore(float[] a, int i, float v) {
        a[i] = v;
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x141, Addresses.of(a, t) + BASE_F + (long) i * SCALE_F);
        }
    }

    /** long array load (laload): loads, then records. */
    public static long laload(long[] a, int i) {
        long v = a[i];
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x080, Addresses.of(a, t) + BASE_L + (long) i * SCALE_L);
        }
        return v;
    }

    /** long array store (lastore): stores, then records. */
    public static void lastore(long[] a, int i, long v) {
        a[i] = v;
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x081, Addresses.of(a, t) + BASE_L + (long) i * SCALE_L);
        }
    }

    /** double array load (daload): loads, then records. */
    public static double daload(double[] a, int i) {
        double v = a[i];
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x180, Addresses.of(a, t) + BASE_D + (long) i * SCALE_D);
        }
        return v;
    }

    /** double array store (dastore): stores, then records. */
    public static void dastore(double[] a, int i, double v) {
        a[i] = v;
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x181, Addresses.of(a, t) + BASE_D + (long) i * SCALE_D);
        }
    }

    /** Byte or boolean array load (baload). */
    public static int baload(Object a, int i) {
        int v;
        long base;
        if (a instanceof boolean[]) {
            v = ((boolean[]) a)[i] ? 1 : 0;
            base = BASE_Z;
        } else {
            v = ((byte[]) a)[i];
            base = BASE_B;
        }
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x010, Addresses.of(a, t) + base + i);
        }
        return v;
    }

    /** Byte or boolean array store (bastore). */
    public static void bastore(Object a, int i, int v) {
        long base;
        if (a instanceof boolean[]) {
            ((boolean[]) a)[i] = (v & 1) != 0;
            base = BASE_Z;
        } else {
            ((byte[]) a)[i] = (byte) v;
            base = BASE_B;
        }
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(0x011, Addresses.of(a, t) + base + i);
        }
    }

    /** Reference array load (aaload): called before the load with the array and index; records valid accesses. */
    public static void aaload(Object[] a, int i) {
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed && a != null && i >= 0 && i < a.length) {
            t.mem(LOAD_REF, Addresses.of(a, t) + BASE_A + (long) i * SCALE_A);
        }
    }

    /** Reference array store (aastore): stores, then records. */
    public static void aastore(Object[] a, int i, Object v) {
        a[i] = v;
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            t.mem(STORE_REF, Addresses.of(a, t) + BASE_A + (long) i * SCALE_A);
        }
    }

    /** Instance field access (getfield/putfield) on {@code o}, just before it happens. */
    public static void field(Object o, int site) {
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed && o != null) {
            long off = Sites.value(site) - 1;
            if (off < 0) {
                off = resolveField(o, site);
            }
            t.mem(Sites.type(site), Addresses.of(o, t) + off);
        }
    }

    /** Static field access (getstatic/putstatic) of a field named in class {@code c}. */
    public static void staticField(Class<?> c, int site) {
        ThreadTrace t = TraceRuntime.current();
        if (t.detailed) {
            long a = Sites.value(site);
            if (a == 0) {
                a = resolveStatic(c, site);
            }
            t.mem(Sites.type(site), a);
        }
    }

    /** A new object or array (after its constructor ran): gives it its address in allocation order. */
    public static void alloc(Object o, int site) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced || o == null) {
            return;
        }
        try {
            Object info = Sites.info(site);
            String where = info instanceof String ? (String) info : "-";
            allocTree(o, t, where, 0);
        } catch (Throwable e) {
            // never disturb the program: the object gets an address on first access instead
        }
    }

    private static void allocTree(Object o, ThreadTrace t, String where, int depth) {
        Addresses.allocated(o, t, where);
        if (o instanceof Object[] && o.getClass().getComponentType().isArray() && depth < 8) {
            for (Object e : (Object[]) o) {
                if (e != null) {
                    allocTree(e, t, where, depth + 1);
                }
            }
        }
    }

    static long resolveField(Object o, int site) {
        long off = 0;
        boolean was = TraceRuntime.enterAgent();
        try {
            String[] d = (String[]) Sites.info(site);
            String owner = d[0].replace('/', '.');
            Class<?> c = o.getClass();
            while (c != null && !c.getName().equals(owner)) {
                c = c.getSuperclass();
            }
            for (Class<?> k = c; k != null; k = k.getSuperclass()) {
                Field f = declared(k, d[1]);
                if (f != null && !Modifier.isStatic(f.getModifiers())) {
                    off = Layouts.fieldOffset(f);
                    break;
                }
            }
        } catch (Throwable e) {
            off = 0;
        } finally {
            TraceRuntime.leaveAgent(was);
        }
        Sites.setValue(site, off + 1);
        return off;
    }

    private static Field declared(Class<?> k, String name) {
        for (Field f : k.getDeclaredFields()) {
            if (f.getName().equals(name)) {
                return f;
            }
        }
        return null;
    }

    private static long resolveStatic(Class<?> c, int site) {
        long a = Addresses.STATIC_BASE;
        boolean was = TraceRuntime.enterAgent();
        try {
            String[] d = (String[]) Sites.info(site);
            Field f = findStatic(c, d[1]);
            if (f != null) {
                long[] off = Layouts.staticOffset(f);
                a = Addresses.staticBlock(f.getDeclaringClass(), off[1]) + off[0];
            }
        } catch (Throwable e) {
            // keep the region base
        } finally {
            TraceRuntime.leaveAgent(was);
        }
        Sites.setValue(site, a);
        return a;
    }

    private static Field findStatic(Class<?> c, String name) {
        if (c == null) {
            return null;
        }
        Field f = declared(c, name);
        if (f != null && Modifier.isStatic(f.getModifiers())) {
            return f;
        }
        for (Class<?> i : c.getInterfaces()) {
            f = findStatic(i, name);
            if (f != null) {
                return f;
            }
        }
        return findStatic(c.getSuperclass(), name);
    }
}
