package org.dsmscope.agent.instrument;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MultiANewArrayInsnNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
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
        Flow flow = new Flow(cn.name, init);
        for (AbstractInsnNode x : init.instructions) {
            if (x.getOpcode() != Opcodes.PUTSTATIC || !((FieldInsnNode) x).desc.equals(VH_DESC)) {
                continue;
            }
            FieldInsnNode f = (FieldInsnNode) x;
            AbstractInsnNode src = flow.source(x, 0);
            Target t = src instanceof MethodInsnNode ? target(flow, (MethodInsnNode) src) : null;
            if (t != null) {
                synchronized (VarHandles.class) {
                    CONSTANTS.put(f.owner + "." + f.name, t);
                }
            }
        }
    }

    /** The target a lookup call in {@code <clinit>} returns, or null if not one of the known patterns. */
    private static Target target(Flow flow, MethodInsnNode m) {
        boolean field = m.name.equals("findVarHandle") || m.name.equals("findStaticVarHandle");
        if (field && m.owner.equals("java/lang/invoke/MethodHandles$Lookup")
                && m.desc.equals("(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/Class;)" + VH_DESC)) {
            Object c = constant(flow, m, 2, 0);
            Object n = constant(flow, m, 1, 0);
            Object t = constant(flow, m, 0, 0);
            if (c instanceof Type && ((Type) c).getSort() == Type.OBJECT && n instanceof String && t instanceof Type) {
                return new Target(((Type) c).getInternalName(), (String) n, ((Type) t).getDescriptor(),
                        m.name.equals("findStaticVarHandle"));
            }
        } else if (m.name.equals("arrayElementVarHandle") && m.owner.equals("java/lang/invoke/MethodHandles")) {
            Object c = constant(flow, m, 0, 0);
            if (c instanceof Type && ((Type) c).getSort() == Type.ARRAY) {
                return new Target(null, null, ((Type) c).getDescriptor().substring(1), false);
            }
        }
        return null;
    }

    /**
     * The constant that is {@code k} values below the top of the stack at {@code at} ({@code ldc} of a class or
     * string, {@code Integer.TYPE} and the like for {@code int.class}), also through a local variable stored once
     * in the method; else null.
     */
    private static Object constant(Flow flow, AbstractInsnNode at, int k, int depth) {
        AbstractInsnNode x = flow.source(at, k);
        if (x instanceof LdcInsnNode) {
            return ((LdcInsnNode) x).cst;
        }
        if (x instanceof FieldInsnNode && x.getOpcode() == Opcodes.GETSTATIC && ((FieldInsnNode) x).name.equals("TYPE")) {
            return primitive(((FieldInsnNode) x).owner);
        }
        if (x instanceof VarInsnNode && x.getOpcode() == Opcodes.ALOAD && depth < 4) {
            int var = ((VarInsnNode) x).var;
            AbstractInsnNode store = null;
            for (AbstractInsnNode y : flow.mn.instructions) {
                if (y.getOpcode() == Opcodes.ASTORE && ((VarInsnNode) y).var == var) {
                    if (store != null) {
                        return null;
                    }
                    store = y;
                }
            }
            return store == null ? null : constant(flow, store, 0, depth + 1);
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
        Flow flow = new Flow(owner, mn);
        Map<AbstractInsnNode, Target> r = new IdentityHashMap<>();
        for (AbstractInsnNode x : mn.instructions) {
            if (x.getOpcode() != Opcodes.INVOKEVIRTUAL || !((MethodInsnNode) x).owner.equals(VH)
                    || mode(((MethodInsnNode) x).name) < 0) {
                continue;
            }
            MethodInsnNode m = (MethodInsnNode) x;
            Target t = null;
            AbstractInsnNode src = flow.source(m, Type.getArgumentTypes(m.desc).length);
            if (src == null && flow.unreachable(m)) {
                continue;
            }
            if (src instanceof FieldInsnNode && src.getOpcode() == Opcodes.GETSTATIC) {
                FieldInsnNode f = (FieldInsnNode) src;
                synchronized (VarHandles.class) {
                    t = CONSTANTS.get(f.owner + "." + f.name);
                }
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
        if (unrecorded == 0 || !org.dsmscope.trace.SystemProperties.booleanValue("dsmscope.agent.debug", false)) {
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

    /**
     * Where the values on a method's operand stack come from. Mostly straight-line code between the handle's
     * {@code getstatic} and its call, so a backward walk over the instructions' stack effects finds the instruction
     * that pushed a value; where the walk meets a jump target or a copying instruction ({@code dup}, a ternary in
     * the arguments), ASM's source analysis of the whole method (about ten times the cost, run once per method) says.
     */
    static final class Flow {
        final String owner;
        final MethodNode mn;
        private java.util.Set<LabelNode> targets;
        private Frame<SourceValue>[] frames;
        private boolean analysed;

        Flow(String owner, MethodNode mn) {
            this.owner = owner;
            this.mn = mn;
        }

        /** The instruction that pushed the value {@code k} values below the top of the stack at {@code at}, or null. */
        AbstractInsnNode source(AbstractInsnNode at, int k) {
            AbstractInsnNode x = walk(at, k);
            return x != null ? x : analysed(at, k);
        }

        /** True if the analysis (run by a {@link #source} the walk could not answer) finds {@code at} unreachable. */
        boolean unreachable(AbstractInsnNode at) {
            return analysed && frames != null && frames[mn.instructions.indexOf(at)] == null;
        }

        /** The backward walk: null where it cannot tell. */
        AbstractInsnNode walk(AbstractInsnNode at, int k) {
            if (targets == null) {
                targets = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
                for (AbstractInsnNode x : mn.instructions) {
                    if (x instanceof JumpInsnNode) {
                        targets.add(((JumpInsnNode) x).label);
                    } else if (x instanceof TableSwitchInsnNode) {
                        targets.add(((TableSwitchInsnNode) x).dflt);
                        targets.addAll(((TableSwitchInsnNode) x).labels);
                    } else if (x instanceof LookupSwitchInsnNode) {
                        targets.add(((LookupSwitchInsnNode) x).dflt);
                        targets.addAll(((LookupSwitchInsnNode) x).labels);
                    }
                }
                for (TryCatchBlockNode t : mn.tryCatchBlocks) {
                    targets.add(t.handler);
                }
            }
            int need = k;
            for (AbstractInsnNode x = at.getPrevious(); x != null; x = x.getPrevious()) {
                if (x instanceof LabelNode) {
                    if (targets.contains(x)) {
                        return null;
                    }
                    continue;
                }
                if (x.getOpcode() < 0) {
                    continue;
                }
                int pops = pops(x);
                int pushes = pushes(x);
                if (pops < 0 || pushes < 0) {
                    return null;
                }
                if (need < pushes) {
                    return x;
                }
                need += pops - pushes;
            }
            return null;
        }

        /** The analysis's answer for {@link #source}: null where the value has more than one source. */
        AbstractInsnNode analysed(AbstractInsnNode at, int k) {
            if (!analysed) {
                analysed = true;
                try {
                    frames = new Analyzer<>(new SourceInterpreter()).analyze(owner, mn);
                } catch (AnalyzerException | RuntimeException e) {
                    frames = null;
                }
            }
            Frame<SourceValue> f = frames == null ? null : frames[mn.instructions.indexOf(at)];
            return f == null ? null : single(top(f, k));
        }
    }

    /** The values (a long or double is one) instruction {@code x} pops, or -1 for one the walk does not follow. */
    static int pops(AbstractInsnNode x) {
        int op = x.getOpcode();
        if (x instanceof MethodInsnNode) {
            return Type.getArgumentTypes(((MethodInsnNode) x).desc).length + (op == Opcodes.INVOKESTATIC ? 0 : 1);
        }
        if (x instanceof InvokeDynamicInsnNode) {
            return Type.getArgumentTypes(((InvokeDynamicInsnNode) x).desc).length;
        }
        if (x instanceof MultiANewArrayInsnNode) {
            return ((MultiANewArrayInsnNode) x).dims;
        }
        if (op >= Opcodes.ACONST_NULL && op <= Opcodes.ALOAD || op == Opcodes.NOP || op == Opcodes.IINC
                || op == Opcodes.GETSTATIC || op == Opcodes.NEW) {
            return 0;
        }
        if (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD || op >= Opcodes.IADD && op <= Opcodes.DREM
                || op >= Opcodes.ISHL && op <= Opcodes.LXOR || op >= Opcodes.LCMP && op <= Opcodes.DCMPG
                || op == Opcodes.PUTFIELD) {
            return 2;
        }
        if (op >= Opcodes.IASTORE && op <= Opcodes.SASTORE) {
            return 3;
        }
        if (op >= Opcodes.ISTORE && op <= Opcodes.ASTORE || op == Opcodes.POP || op >= Opcodes.INEG && op <= Opcodes.DNEG
                || op >= Opcodes.I2L && op <= Opcodes.I2S || op == Opcodes.PUTSTATIC || op == Opcodes.GETFIELD
                || op == Opcodes.NEWARRAY || op == Opcodes.ANEWARRAY || op == Opcodes.ARRAYLENGTH
                || op == Opcodes.CHECKCAST || op == Opcodes.INSTANCEOF || op == Opcodes.MONITORENTER
                || op == Opcodes.MONITOREXIT) {
            return 1;
        }
        return -1;
    }

    /** The values instruction {@code x} pushes (0 or 1), or -1 for one the walk does not follow. */
    static int pushes(AbstractInsnNode x) {
        if (x instanceof MethodInsnNode) {
            return Type.getReturnType(((MethodInsnNode) x).desc).getSort() == Type.VOID ? 0 : 1;
        }
        if (x instanceof InvokeDynamicInsnNode) {
            return Type.getReturnType(((InvokeDynamicInsnNode) x).desc).getSort() == Type.VOID ? 0 : 1;
        }
        int op = x.getOpcode();
        if (pops(x) < 0) {
            return -1;
        }
        if (op >= Opcodes.ISTORE && op <= Opcodes.ASTORE || op >= Opcodes.IASTORE && op <= Opcodes.SASTORE
                || op == Opcodes.POP || op == Opcodes.NOP || op == Opcodes.IINC || op == Opcodes.PUTSTATIC
                || op == Opcodes.PUTFIELD || op == Opcodes.MONITORENTER || op == Opcodes.MONITOREXIT) {
            return 0;
        }
        return 1;
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
