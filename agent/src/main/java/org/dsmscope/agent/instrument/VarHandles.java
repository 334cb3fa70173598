package org.dsmscope.agent.instrument;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;

/**
 * Which field or array a {@code VarHandle} call site of a JDK class acts on, with {@code jdk=true} (issue 28;
 * SPEC §3 address model): the JDK's {@code java.util.concurrent} reaches a future's result, a queue node's item or a
 * task's state through {@code static final VarHandle} constants, which a call site names only as the handle. The
 * class initializer's {@code MethodHandles.lookup().findVarHandle(C.class, "name", T.class)} and {@code
 * MethodHandles.arrayElementVarHandle(T[].class)} calls say which field or array each constant names; they are
 * read from its {@code <clinit>} bytecode when the class is rewritten and kept by {@code OWNER.CONSTANT}, so a
 * nested class ({@code ConcurrentLinkedQueue$Node}) finds its outer class's handles. A call site's handle is the
 * {@code getstatic} that pushed it, found by ASM's source analysis. A handle found otherwise (a parameter, a field
 * set outside {@code <clinit>}, a view of a byte array) leaves its call unrecorded and counted
 * ({@link #unrecordedWarning}).
 */
public final class VarHandles {
    private static final String VH = "java/lang/invoke/VarHandle";
    private static final String VH_DESC = "L" + VH + ";";
    /** {@code OWNER.CONSTANT} to what the constant names; guarded by the class. */
    private static final Map<String, Target> CONSTANTS = new HashMap<>();
    private static int unrecorded;
    private static String firstUnrecorded;

    private VarHandles() {
    }

    /** What a {@code VarHandle} constant names: an instance field, a static field, or the elements of an array type. */
    static final class Target {
        /** The field's declaring class (internal name); null for array elements. */
        final String owner;
        /** The field's name; null for array elements. */
        final String name;
        /** The field's or the element's descriptor. */
        final String desc;
        /** True for a static field (not recorded: the JDK's statics are not traced). */
        final boolean isStatic;

        Target(String owner, String name, String desc, boolean isStatic) {
            this.owner = owner;
            this.name = name;
            this.desc = desc;
            this.isStatic = isStatic;
        }

        boolean isArray() {
            return owner == null;
        }
    }

    /** Reads the {@code VarHandle} constants that {@code cn}'s class initializer sets. */
    static void scan(ClassNode cn) {
        MethodNode init = null;
        for (MethodNode m : cn.methods) {
            if (m.name.equals("<clinit>")) {
                init = m;
            }
        }
        if (init == null || !mentions(init, "java/lang/invoke/MethodHandles")) {
            return;
        }
        Frame<SourceValue>[] frames = frames(cn.name, init);
        if (frames == null) {
            return;
        }
        InsnList in = init.instructions;
        for (int i = 0; i < in.size(); i++) {
            AbstractInsnNode x = in.get(i);
            if (x.getOpcode() != Opcodes.PUTSTATIC || !((FieldInsnNode) x).desc.equals(VH_DESC) || frames[i] == null) {
                continue;
            }
            FieldInsnNode f = (FieldInsnNode) x;
            AbstractInsnNode src = single(top(frames[i], 0));
            Target t = src instanceof MethodInsnNode ? target(init, frames, (MethodInsnNode) src) : null;
            if (t != null) {
                synchronized (VarHandles.class) {
                    CONSTANTS.put(f.owner + "." + f.name, t);
                }
            }
        }
    }

    /** The target a lookup call in {@code <clinit>} returns, or null if not one of the known patterns. */
    private static Target target(MethodNode mn, Frame<SourceValue>[] frames, MethodInsnNode m) {
        Frame<SourceValue> f = frames[mn.instructions.indexOf(m)];
        if (f == null) {
            return null;
        }
        boolean field = m.name.equals("findVarHandle") || m.name.equals("findStaticVarHandle");
        if (field && m.owner.equals("java/lang/invoke/MethodHandles$Lookup")
                && m.desc.equals("(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/Class;)" + VH_DESC)) {
            Object c = constant(mn, frames, top(f, 2), 0);
            Object n = constant(mn, frames, top(f, 1), 0);
            Object t = constant(mn, frames, top(f, 0), 0);
            if (c instanceof Type && ((Type) c).getSort() == Type.OBJECT && n instanceof String && t instanceof Type) {
                return new Target(((Type) c).getInternalName(), (String) n, ((Type) t).getDescriptor(),
                        m.name.equals("findStaticVarHandle"));
            }
        } else if (m.name.equals("arrayElementVarHandle") && m.owner.equals("java/lang/invoke/MethodHandles")) {
            Object c = constant(mn, frames, top(f, 0), 0);
            if (c instanceof Type && ((Type) c).getSort() == Type.ARRAY && ((Type) c).getDimensions() >= 1) {
                String d = ((Type) c).getDescriptor().substring(1);
                return new Target(null, null, d, false);
            }
        }
        return null;
    }

    /**
     * The constant a value is ({@code ldc} of a class or string, {@code Integer.TYPE} and the like for {@code
     * int.class}), also through a local variable stored once in the method; else null.
     */
    private static Object constant(MethodNode mn, Frame<SourceValue>[] frames, SourceValue v, int depth) {
        AbstractInsnNode x = single(v);
        if (x instanceof LdcInsnNode) {
            return ((LdcInsnNode) x).cst;
        }
        if (x instanceof FieldInsnNode && x.getOpcode() == Opcodes.GETSTATIC && ((FieldInsnNode) x).name.equals("TYPE")) {
            return primitive(((FieldInsnNode) x).owner);
        }
        if (x instanceof VarInsnNode && x.getOpcode() == Opcodes.ALOAD && depth < 4) {
            int var = ((VarInsnNode) x).var;
            AbstractInsnNode store = null;
            for (AbstractInsnNode y : mn.instructions) {
                if (y.getOpcode() == Opcodes.ASTORE && ((VarInsnNode) y).var == var) {
                    if (store != null) {
                        return null;
                    }
                    store = y;
                }
            }
            Frame<SourceValue> f = store == null ? null : frames[mn.instructions.indexOf(store)];
            return f == null ? null : constant(mn, frames, top(f, 0), depth + 1);
        }
        return null;
    }

    private static Type primitive(String wrapper) {
        switch (wrapper) {
            case "java/lang/Boolean": return Type.BOOLEAN_TYPE;
            case "java/lang/Byte": return Type.BYTE_TYPE;
            case "java/lang/Character": return Type.CHAR_TYPE;
            case "java/lang/Short": return Type.SHORT_TYPE;
            case "java/lang/Integer": return Type.INT_TYPE;
            case "java/lang/Float": return Type.FLOAT_TYPE;
            case "java/lang/Long": return Type.LONG_TYPE;
            case "java/lang/Double": return Type.DOUBLE_TYPE;
            default: return null;
        }
    }

    /**
     * The targets of the {@code VarHandle} access calls of {@code mn} (of class {@code owner}), by call instruction;
     * a call whose handle is not a known constant is left out and counted. Null if the method has no such call.
     * Call before the method is rewritten.
     */
    static Map<AbstractInsnNode, Target> sites(String owner, MethodNode mn) {
        if (!mentions(mn, VH)) {
            return null;
        }
        Frame<SourceValue>[] frames = frames(owner, mn);
        Map<AbstractInsnNode, Target> r = new IdentityHashMap<>();
        InsnList in = mn.instructions;
        for (int i = 0; i < in.size(); i++) {
            AbstractInsnNode x = in.get(i);
            if (x.getOpcode() != Opcodes.INVOKEVIRTUAL || !((MethodInsnNode) x).owner.equals(VH)
                    || mode(((MethodInsnNode) x).name) < 0) {
                continue;
            }
            MethodInsnNode m = (MethodInsnNode) x;
            Target t = null;
            if (frames != null && frames[i] != null) {
                AbstractInsnNode src = single(top(frames[i], Type.getArgumentTypes(m.desc).length));
                if (src instanceof FieldInsnNode && src.getOpcode() == Opcodes.GETSTATIC) {
                    FieldInsnNode f = (FieldInsnNode) src;
                    synchronized (VarHandles.class) {
                        t = CONSTANTS.get(f.owner + "." + f.name);
                    }
                }
            } else if (frames != null) {
                continue; // unreachable code
            }
            if (t == null) {
                synchronized (VarHandles.class) {
                    unrecorded++;
                    if (firstUnrecorded == null) {
                        firstUnrecorded = owner.replace('/', '.') + "." + mn.name + " (VarHandle." + m.name + ")";
                    }
                }
            } else if (!t.isStatic) {
                r.put(m, t);
            }
        }
        return r;
    }

    /** Access mode kinds of {@code VarHandle} methods. */
    static final int READ = 0;
    static final int WRITE = 1;
    static final int READ_WRITE = 2;
    static final int CAS = 3;
    static final int EXCHANGE = 4;

    /** The access mode kind of a {@code VarHandle} method, or -1 for others (fences, descriptions). */
    static int mode(String name) {
        if (name.startsWith("getAnd")) {
            return READ_WRITE;
        }
        if (name.startsWith("compareAndExchange")) {
            return EXCHANGE;
        }
        if (name.equals("compareAndSet") || name.startsWith("weakCompareAndSet")) {
            return CAS;
        }
        switch (name) {
            case "get": case "getVolatile": case "getAcquire": case "getOpaque":
                return READ;
            case "set": case "setVolatile": case "setRelease": case "setOpaque":
                return WRITE;
            default:
                return -1;
        }
    }

    /** What the constant {@code OWNER.NAME} (internal owner name) names, or null if unknown. */
    static synchronized Target constant(String ownerDotName) {
        return CONSTANTS.get(ownerDotName);
    }

    /** The number of access call sites seen so far whose handle is unknown. */
    static synchronized int unrecordedSites() {
        return unrecorded;
    }

    /**
     * With {@code -Ddsmscope.agent.debug=true}, the line that counts the JDK's {@code VarHandle} call sites left
     * unrecorded because their handle is not a known constant; else (or if there are none) null.
     */
    public static synchronized String unrecordedWarning() {
        if (unrecorded == 0 || !Boolean.getBoolean("dsmscope.agent.debug")) {
            return null;
        }
        return unrecorded + " VarHandle call site(s) of JDK classes unrecorded (handle not a static final constant"
                + " of a class initializer), first in " + firstUnrecorded;
    }

    private static boolean mentions(MethodNode mn, String owner) {
        for (AbstractInsnNode x : mn.instructions) {
            if (x instanceof MethodInsnNode && ((MethodInsnNode) x).owner.equals(owner)) {
                return true;
            }
        }
        return false;
    }

    private static Frame<SourceValue>[] frames(String owner, MethodNode mn) {
        try {
            return new Analyzer<>(new SourceInterpreter()).analyze(owner, mn);
        } catch (AnalyzerException | RuntimeException e) {
            return null;
        }
    }

    /** The value {@code k} places below the top of frame {@code f}'s operand stack. */
    private static SourceValue top(Frame<SourceValue> f, int k) {
        int i = f.getStackSize() - 1 - k;
        return i < 0 ? null : f.getStack(i);
    }

    private static AbstractInsnNode single(SourceValue v) {
        return v == null || v.insns.size() != 1 ? null : v.insns.iterator().next();
    }
}
