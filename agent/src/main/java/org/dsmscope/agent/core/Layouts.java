package org.dsmscope.agent.core;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.openjdk.jol.vm.VM;
import org.openjdk.jol.vm.VirtualMachine;

/**
 * HotSpot object layout for the synthetic address model (SPEC §3): field offsets, header size and alignment from JOL (instance size = end of the last field, aligned),
 * array header and element scale, static field offsets. Falls back to a documented estimate (12-byte header,
 * fields in declaration order at their natural alignment) for classes JOL cannot lay out (records and hidden
 * classes, whose offsets HotSpot does not reveal).
 */
public final class Layouts {
    private static VirtualMachine vm;
    private static final sun.misc.Unsafe UNSAFE = unsafe();
    /** Array base offsets and index scales by element kind (see {@link #kindOf}). */
    private static final int[] BASE = new int[9];
    private static final int[] SCALE = new int[9];
    /** Instance header bytes without JOL: the offset of the only field of a probe class. */
    private static final long HEADER = UNSAFE.objectFieldOffset(probeField());

    /** A probe class with one int field (its offset is the instance header size). */
    private static final class Probe {
        int field;
    }

    private static Field probeField() {
        try {
            return Probe.class.getDeclaredField("field");
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Object alignment in bytes. */
    private static int align = 8;
    /** Bytes of a reference (4 with compressed references). */
    public static int refBytes = 4;

    private static final ClassValue<Long> SIZES = new ClassValue<>() {
        @Override
        protected Long computeValue(Class<?> c) {
            return instanceSizeUncached(c);
        }
    };

    private static final ClassValue<long[]> STATICS = new ClassValue<>() {
        @Override
        protected long[] computeValue(Class<?> c) {
            return new long[] {0};
        }
    };

    private Layouts() {
    }

    /** The {@code Unsafe} instance, null if it cannot be had. */
    static sun.misc.Unsafe unsafeOrNull() {
        return UNSAFE;
    }

    private static sun.misc.Unsafe unsafe() {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Initializes the layouts. With {@code useJol} (levels 2 and 3) JOL reads the running VM's layout, its
     * console output silenced (it may print warnings a traced program must not see) and its attach attempts
     * skipped; JOL's start-up takes a few hundred milliseconds, so level 1, which only needs the sizes of
     * synchronization objects, reads the same offsets from {@code Unsafe} as JOL itself does on HotSpot.
     */
    static void init(boolean useJol) {
        if (useJol) {
            PrintStream out = System.out;
            PrintStream errs = System.err;
            PrintStream nul = new PrintStream(OutputStream.nullOutputStream());
            String[] props = {"jol.skipDynamicAttach", "jol.skipHotspotSAAttach"};
            String[] old = new String[props.length];
            try {
                for (int i = 0; i < props.length; i++) {
                    old[i] = System.getProperty(props[i]);
                    System.setProperty(props[i], "true");
                }
                System.setOut(nul);
                System.setErr(nul);
                vm = VM.current();
                align = vm.objectAlignment();
            } catch (Throwable t) {
                vm = null;
            } finally {
                System.setOut(out);
                System.setErr(errs);
                for (int i = 0; i < props.length; i++) {
                    if (old[i] == null) {
                        System.clearProperty(props[i]);
                    }
                }
            }
        }
        Class<?>[] kinds = {boolean[].class, byte[].class, char[].class, short[].class, int[].class, float[].class,
            long[].class, double[].class, Object[].class};
        for (int k = 0; k < kinds.length; k++) {
            BASE[k] = UNSAFE.arrayBaseOffset(kinds[k]);
            SCALE[k] = UNSAFE.arrayIndexScale(kinds[k]);
        }
        refBytes = SCALE[8];
    }

    /** Element kind of an array class: 0 boolean .. 7 double, 8 reference. */
    public static int kindOf(Class<?> arrayClass) {
        Class<?> c = arrayClass.getComponentType();
        if (!c.isPrimitive()) {
            return 8;
        }
        if (c == boolean.class) {
            return 0;
        } else if (c == byte.class) {
            return 1;
        } else if (c == char.class) {
            return 2;
        } else if (c == short.class) {
            return 3;
        } else if (c == int.class) {
            return 4;
        } else if (c == float.class) {
            return 5;
        } else if (c == long.class) {
            return 6;
        }
        return 7;
    }

    /** Array base offset (header bytes) for an element kind. */
    public static int base(int kind) {
        return BASE[kind];
    }

    /** Array index scale for an element kind. */
    public static int scale(int kind) {
        return SCALE[kind];
    }

    /** Size in bytes of object {@code o} as HotSpot allocates it (aligned). */
    public static long sizeOf(Object o) {
        Class<?> c = o.getClass();
        if (c.isArray()) {
            int k = kindOf(c);
            ARRAY_ROWS.get(c);
            return alignUp(BASE[k] + (long) java.lang.reflect.Array.getLength(o) * SCALE[k]);
        }
        return SIZES.get(c);
    }

    private static long alignUp(long n) {
        return (n + align - 1) / align * align;
    }

    /**
     * HotSpot's instance size: the end of the last field (offsets from JOL's view of the running VM), at least
     * the object header, rounded up to the object alignment.
     */
    private static long instanceSizeUncached(Class<?> c) {
        long end = vm != null ? vm.objectHeaderSize() : HEADER;
        java.util.List<Object[]> fields = new java.util.ArrayList<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    long off = fieldOffset(f);
                    end = Math.max(end, off + bytesOf(f.getType()));
                    fields.add(new Object[] {(int) off, bytesOf(f.getType()), f.getName()});
                }
            }
        }
        long size = alignUp(Math.max(end, 16));
        if (LAID_OUT.add(c.getName())) {
            Sidecars.layout(c.getTypeName(), fields);
        }
        return size;
    }

    /** Array classes whose element layout went to the data map (computed once per class). */
    private static final ClassValue<Boolean> ARRAY_ROWS = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> c) {
            int k = kindOf(c);
            Sidecars.arrayLayout(c.getTypeName(), (int) BASE[k], SCALE[k]);
            return Boolean.TRUE;
        }
    };

    /** Classes whose layout went to the data map (ClassValue may compute a value twice). */
    private static final java.util.Set<String> LAID_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Bytes of a field of type {@code t} (references: {@link #refBytes}). */
    public static int bytesOf(Class<?> t) {
        if (t == long.class || t == double.class) {
            return 8;
        } else if (t == int.class || t == float.class) {
            return 4;
        } else if (t == short.class || t == char.class) {
            return 2;
        } else if (t == byte.class || t == boolean.class) {
            return 1;
        }
        return refBytes;
    }

    /** Offset of instance field {@code f} within its object. */
    public static long fieldOffset(Field f) {
        try {
            if (vm != null) {
                return vm.fieldOffset(f);
            }
        } catch (Throwable t) {
            // records and hidden classes: estimate below
        }
        try {
            return UNSAFE.objectFieldOffset(f);
        } catch (Throwable t) {
            long off = 12;
            Class<?> d = f.getDeclaringClass();
            for (Class<?> k = d.getSuperclass(); k != null; k = k.getSuperclass()) {
                for (Field g : k.getDeclaredFields()) {
                    if (!Modifier.isStatic(g.getModifiers())) {
                        off += bytesOf(g.getType());
                    }
                }
            }
            for (Field g : d.getDeclaredFields()) {
                if (g.equals(f)) {
                    int b = bytesOf(g.getType());
                    return (off + b - 1) / b * b;
                }
                if (!Modifier.isStatic(g.getModifiers())) {
                    off += bytesOf(g.getType());
                }
            }
            return off;
        }
    }

    /** Offset of static field {@code f} within its class's static block, and the block size in [1]. */
    public static long[] staticOffset(Field f) {
        Class<?> d = f.getDeclaringClass();
        long min = Long.MAX_VALUE;
        long max = 0;
        long mine = -1;
        long seq = 0;
        for (Field g : d.getDeclaredFields()) {
            if (!Modifier.isStatic(g.getModifiers())) {
                continue;
            }
            long off;
            try {
                off = UNSAFE.staticFieldOffset(g);
            } catch (Throwable t) {
                off = seq;
            }
            seq += 8;
            min = Math.min(min, off);
            max = Math.max(max, off + bytesOf(g.getType()));
            if (g.equals(f)) {
                mine = off;
            }
        }
        if (min == Long.MAX_VALUE) {
            min = 0;
        }
        return new long[] {Math.max(0, mine - min), Math.max(8, max - min)};
    }

    /** The static block record of a class: [0] its address once assigned. */
    public static long[] staticBlock(Class<?> c) {
        return STATICS.get(c);
    }
}
