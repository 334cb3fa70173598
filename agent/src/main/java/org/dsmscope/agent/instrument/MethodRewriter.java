package org.dsmscope.agent.instrument;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.dsmscope.agent.core.Layouts;
import org.dsmscope.agent.core.Sidecars;
import org.dsmscope.agent.core.Sites;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Rewrites one method for a level (seed 000 §2; SPEC §3): level 1 critical sections and synchronization calls,
 * level 2 field and array accesses and allocations, level 3 procedure starts, calls, returns and taken branches
 * over the method's code range (instruction slot i at base + 4i, as numbered before any insertion).
 */
final class MethodRewriter {
    private static final String MEM = "org/dsmscope/agent/rt/MemHooks";
    private static final String JDK_MEM = "org/dsmscope/agent/rt/JdkMemHooks";
    private static final String CODE = "org/dsmscope/agent/rt/CodeHooks";
    private static final String SYNC = CallSites.SYNC;

    private final ClassInstrumenter ci;
    private final MethodNode mn;
    private final InsnList in;
    private final int level;
    /** A JDK class: field and array accesses (no statics) and array allocations only, through {@link #JDK_MEM}. */
    private final boolean jdk;
    private final String mem;
    private boolean changed;

    MethodRewriter(ClassInstrumenter ci, MethodNode mn) {
        this.ci = ci;
        this.mn = mn;
        this.in = mn.instructions;
        this.level = ci.level;
        this.jdk = ci.jdk;
        this.mem = jdk ? JDK_MEM : MEM;
    }

    /** Rewrites the method; true if anything changed. */
    boolean rewrite() {
        AbstractInsnNode[] insns = in.toArray();
        Map<AbstractInsnNode, Integer> slotOf = new IdentityHashMap<>();
        int n = 0;
        for (AbstractInsnNode x : insns) {
            if (x.getOpcode() >= 0) {
                slotOf.put(x, n++);
            }
        }
        Map<LabelNode, Integer> labelSlot = new IdentityHashMap<>();
        int next = n;
        for (int i = insns.length - 1; i >= 0; i--) {
            AbstractInsnNode x = insns[i];
            if (x.getOpcode() >= 0) {
                next = slotOf.get(x);
            } else if (x instanceof LabelNode) {
                labelSlot.put((LabelNode) x, next);
            }
        }
        Map<AbstractInsnNode, VarHandles.Target> handles = jdk ? VarHandles.sites(ci.cn.name, mn) : null;
        String key = ci.cn.name + "." + mn.name + mn.desc;
        int scratch = mn.maxLocals;
        long base = level >= 3 ? Sites.allocateCode(key, n) : -1;
        boolean code = base >= 0;
        boolean isCtor = mn.name.equals("<init>");
        boolean superDone = !isCtor;
        ArrayDeque<boolean[]> news = new ArrayDeque<>();
        List<Integer> memSlots = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        int line = -1;
        for (int i = 0; i < insns.length; i++) {
            AbstractInsnNode x = insns[i];
            if (x instanceof LineNumberNode) {
                line = ((LineNumberNode) x).line;
                Integer s = labelSlot.get(((LineNumberNode) x).start);
                if (s != null) {
                    lines.add(s);
                    lines.add(line);
                }
                continue;
            }
            int op = x.getOpcode();
            if (op < 0) {
                continue;
            }
            int slot = slotOf.get(x);
            int src = (int) (base + 4L * slot + 4);
            switch (op) {
                case Opcodes.MONITORENTER:
                    if (jdk) {
                        break;
                    }
                    before(x, new InsnNode(Opcodes.DUP), new InsnNode(Opcodes.DUP),
                            call(SYNC, "monitorEnter", "(Ljava/lang/Object;)V"));
                    after(x, call(SYNC, "monitorEntered", "(Ljava/lang/Object;)V"));
                    break;
                case Opcodes.MONITOREXIT:
                    if (jdk) {
                        break;
                    }
                    before(x, new InsnNode(Opcodes.DUP));
                    after(x, call(SYNC, "monitorExit", "(Ljava/lang/Object;)V"));
                    break;
                case Opcodes.INVOKEVIRTUAL:
                case Opcodes.INVOKEINTERFACE:
                case Opcodes.INVOKESTATIC:
                case Opcodes.INVOKESPECIAL: {
                    MethodInsnNode m = (MethodInsnNode) x;
                    AbstractInsnNode cur = jdk ? m : invoke(m);
                    if (jdk && op == Opcodes.INVOKEVIRTUAL && JdkRewrite.unsafe(in, m, scratch)) {
                        changed = true;
                    }
                    VarHandles.Target vh = handles == null ? null : handles.get(m);
                    if (vh != null && JdkRewrite.varHandle(in, m, vh, scratch)) {
                        changed = true;
                    }
                    if (op == Opcodes.INVOKESPECIAL && m.name.equals("<init>")) {
                        if (!news.isEmpty()) {
                            boolean[] nw = news.pop();
                            if (nw[0] && level >= 2 && !jdk) {
                                int site = Sites.register(0, where(line));
                                if (site > 0) {
                                    after(cur, new InsnNode(Opcodes.DUP), push(site),
                                            call(MEM, "alloc", "(Ljava/lang/Object;I)V"));
                                }
                            }
                        } else if (!superDone) {
                            superDone = true;
                        }
                    }
                    if (code) {
                        int site = Sites.register(0, m.owner + "." + m.name + m.desc);
                        before(cur, push(src), push(site), call(CODE, "call", "(II)V"));
                        after(cur, push(src), push(site), call(CODE, "returned", "(II)V"));
                    }
                    break;
                }
                case Opcodes.INVOKEDYNAMIC:
                    if (!jdk && CallSites.methodReference((InvokeDynamicInsnNode) x)) {
                        changed = true;
                    }
                    if (code) {
                        InvokeDynamicInsnNode d = (InvokeDynamicInsnNode) x;
                        int site = Sites.register(0, "indy." + d.name + d.desc);
                        before(x, push(src), push(site), call(CODE, "call", "(II)V"));
                        after(x, push(src), push(site), call(CODE, "returned", "(II)V"));
                    }
                    break;
                case Opcodes.NEW:
                    news.push(new boolean[] {nextIsDup(insns, i)});
                    break;
                case Opcodes.NEWARRAY:
                case Opcodes.ANEWARRAY:
                case Opcodes.MULTIANEWARRAY:
                    if (jdk) {
                        String named = JdkRewrite.storedIn(insns, i);
                        // only a named array: the JDK's other arrays (a string's bytes, a list's copy) get an
                        // address when instrumented code first touches them
                        int site = named == null ? 0 : Sites.register(0, named + "\n" + where(line));
                        if (site > 0) {
                            after(x, new InsnNode(Opcodes.DUP), push(site),
                                    call(JDK_MEM, "alloc", "(Ljava/lang/Object;I)V"));
                        }
                    } else if (level >= 2) {
                        int site = Sites.register(0, where(line));
                        if (site > 0) {
                            after(x, new InsnNode(Opcodes.DUP), push(site), call(MEM, "alloc", "(Ljava/lang/Object;I)V"));
                        }
                    }
                    break;
                case Opcodes.GETFIELD:
                case Opcodes.PUTFIELD:
                case Opcodes.GETSTATIC:
                case Opcodes.PUTSTATIC:
                    if (level >= 2 && !(jdk && (op == Opcodes.GETSTATIC || op == Opcodes.PUTSTATIC))
                            && field((FieldInsnNode) x, superDone)) {
                        memSlots.add(slot);
                    }
                    break;
                case Opcodes.IRETURN:
                case Opcodes.LRETURN:
                case Opcodes.FRETURN:
                case Opcodes.DRETURN:
                case Opcodes.ARETURN:
                case Opcodes.RETURN:
                    if (code) {
                        before(x, push(src), call(CODE, "ret", "(I)V"));
                    }
                    if (isSynchronized()) {
                        before(x, lockRef(), call(SYNC, "monitorExit", "(Ljava/lang/Object;)V"));
                    }
                    break;
                case Opcodes.GOTO:
                    if (code) {
                        before(x, push(src), push(target(base, labelSlot, ((JumpInsnNode) x).label)),
                                call(CODE, "jump", "(II)V"));
                    }
                    break;
                case Opcodes.TABLESWITCH:
                case Opcodes.LOOKUPSWITCH:
                    if (code) {
                        int site = Sites.register(0, switchInfo(x, src, base, labelSlot));
                        before(x, new InsnNode(Opcodes.DUP), push(site), call(CODE, "switchOn", "(II)V"));
                    }
                    break;
                default:
                    if (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD || op >= Opcodes.IASTORE && op <= Opcodes.SASTORE) {
                        if (jdk) {
                            JdkRewrite.element(in, x, op);
                            changed = true;
                        } else if (level >= 2) {
                            array(x, op);
                            memSlots.add(slot);
                        }
                    } else if (code && (op >= Opcodes.IFEQ && op <= Opcodes.IF_ACMPNE || op == Opcodes.IFNULL
                            || op == Opcodes.IFNONNULL)) {
                        branch((JumpInsnNode) x, src, target(base, labelSlot, ((JumpInsnNode) x).label));
                    }
                    break;
            }
        }
        InsnList entry = new InsnList();
        if (code) {
            entry.add(push((int) base));
            entry.add(call(CODE, "enter", "(I)V"));
            changed = true;
        }
        if (isSynchronized()) {
            entry.add(lockRef());
            entry.add(call(SYNC, "methodEntered", "(Ljava/lang/Object;)V"));
            addSyncHandler(entry);
        } else if (entry.size() > 0) {
            in.insert(entry);
        }
        if (code) {
            Sidecars.symbol(base, base + 4L * Math.max(1, n), key, ci.cn.sourceFile, toArray(lines), toArray(memSlots));
        }
        return changed;
    }

    private boolean isSynchronized() {
        return !jdk && (mn.access & Opcodes.ACC_SYNCHRONIZED) != 0 && ((mn.access & Opcodes.ACC_STATIC) == 0 || ci.version >= 49);
    }

    private AbstractInsnNode lockRef() {
        if ((mn.access & Opcodes.ACC_STATIC) != 0) {
            return new LdcInsnNode(Type.getObjectType(ci.cn.name));
        }
        return new VarInsnNode(Opcodes.ALOAD, 0);
    }

    /** A catch-all handler that records the end of the method's critical section when an exception leaves it. */
    private void addSyncHandler(InsnList entry) {
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        LabelNode handler = new LabelNode();
        entry.add(start);
        in.insert(entry);
        in.add(end);
        in.add(handler);
        if (ci.version >= 50) {
            List<Object> locals = new ArrayList<>();
            if ((mn.access & Opcodes.ACC_STATIC) == 0) {
                locals.add(ci.cn.name);
            }
            for (Type t : Type.getArgumentTypes(mn.desc)) {
                locals.add(frameType(t));
            }
            in.add(new FrameNode(Opcodes.F_FULL, locals.size(), locals.toArray(), 1,
                    new Object[] {"java/lang/Throwable"}));
        }
        in.add(lockRef());
        in.add(call(SYNC, "monitorExit", "(Ljava/lang/Object;)V"));
        in.add(new InsnNode(Opcodes.ATHROW));
        mn.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
        changed = true;
    }

    private static Object frameType(Type t) {
        switch (t.getSort()) {
            case Type.BOOLEAN: case Type.CHAR: case Type.BYTE: case Type.SHORT: case Type.INT:
                return Opcodes.INTEGER;
            case Type.FLOAT:
                return Opcodes.FLOAT;
            case Type.LONG:
                return Opcodes.LONG;
            case Type.DOUBLE:
                return Opcodes.DOUBLE;
            case Type.ARRAY:
                return t.getDescriptor();
            default:
                return t.getInternalName();
        }
    }

    /** Level 1 replacement or wrapping of a call; returns the node now in its place. */
    private AbstractInsnNode invoke(MethodInsnNode m) {
        CallSites.Replace r = CallSites.replacement(m.owner, m.name, m.desc);
        if (r != null) {
            int op = m.getOpcode();
            boolean ok = r.ofStatic ? op == Opcodes.INVOKESTATIC
                    : op == Opcodes.INVOKEVIRTUAL || op == Opcodes.INVOKEINTERFACE;
            if (!ok) {
                return m;
            }
            MethodInsnNode h = new MethodInsnNode(Opcodes.INVOKESTATIC, r.owner, r.name, r.desc, false);
            in.set(m, h);
            changed = true;
            return h;
        }
        if (m.getOpcode() == Opcodes.INVOKESPECIAL || !ci.canWrap()) {
            return m;
        }
        CallSites.Wrap w = CallSites.wrap(m.owner, m.name, m.desc);
        if (w == null) {
            return m;
        }
        String name = ci.wrapper(m, w);
        Type[] args = Type.getArgumentTypes(m.desc);
        List<Type> params = new ArrayList<>();
        if (m.getOpcode() != Opcodes.INVOKESTATIC) {
            params.add(Type.getObjectType(m.owner));
        }
        for (Type a : args) {
            params.add(a);
        }
        String desc = Type.getMethodDescriptor(Type.getReturnType(m.desc), params.toArray(new Type[0]));
        MethodInsnNode h = new MethodInsnNode(Opcodes.INVOKESTATIC, ci.cn.name, name, desc, false);
        in.set(m, h);
        changed = true;
        return h;
    }

    private boolean field(FieldInsnNode f, boolean superDone) {
        boolean store = f.getOpcode() == Opcodes.PUTFIELD || f.getOpcode() == Opcodes.PUTSTATIC;
        boolean isStatic = f.getOpcode() == Opcodes.GETSTATIC || f.getOpcode() == Opcodes.PUTSTATIC;
        if (!isStatic && !superDone) {
            return false;
        }
        if (isStatic && ci.version < 49) {
            return false;
        }
        int site = Sites.register(memType(f.desc, store), new String[] {f.owner, f.name, f.desc});
        if (site == 0) {
            return false;
        }
        if (jdk && store && f.desc.startsWith("[")) {
            // the array stored in a field of a JDK class is named after it, unless it has an address already
            int named = Sites.register(0, JdkRewrite.simpleName(f.owner) + "." + f.name + "\n-");
            if (named > 0) {
                before(f, new InsnNode(Opcodes.DUP), push(named), call(JDK_MEM, "alloc", "(Ljava/lang/Object;I)V"));
            }
        }
        if (isStatic) {
            before(f, new LdcInsnNode(Type.getObjectType(f.owner)), push(site),
                    call(MEM, "staticField", "(Ljava/lang/Class;I)V"));
        } else if (!store) {
            before(f, new InsnNode(Opcodes.DUP), push(site), call(mem, "field", "(Ljava/lang/Object;I)V"));
        } else if (Type.getType(f.desc).getSize() == 1) {
            before(f, new InsnNode(Opcodes.DUP2), new InsnNode(Opcodes.POP), push(site),
                    call(mem, "field", "(Ljava/lang/Object;I)V"));
        } else {
            before(f, new InsnNode(Opcodes.DUP2_X1), new InsnNode(Opcodes.POP2), new InsnNode(Opcodes.DUP_X2), push(site),
                    call(mem, "field", "(Ljava/lang/Object;I)V"));
        }
        changed = true;
        return true;
    }

    /** The memory type field (seed 000 A.2 as SPEC §2 decodes it) of an access to a value of descriptor d. */
    static int memType(String d, boolean store) {
        int t;
        switch (d.charAt(0)) {
            case 'Z': case 'B': t = 0x010; break;
            case 'C': case 'S': t = 0x020; break;
            case 'I': t = 0x040; break;
            case 'F': t = 0x140; break;
            case 'J': t = 0x080; break;
            case 'D': t = 0x180; break;
            default: t = Layouts.refBytes == 8 ? 0x080 : 0x040; break;
        }
        return store ? t | 1 : t;
    }

    private void array(AbstractInsnNode x, int op) {
        String name;
        String desc;
        switch (op) {
            case Opcodes.IALOAD: name = "iaload"; desc = "([II)I"; break;
            case Opcodes.LALOAD: name = "laload"; desc = "([JI)J"; break;
            case Opcodes.FALOAD: name = "faload"; desc = "([FI)F"; break;
            case Opcodes.DALOAD: name = "daload"; desc = "([DI)D"; break;
            case Opcodes.BALOAD: name = "baload"; desc = "(Ljava/lang/Object;I)I"; break;
            case Opcodes.CALOAD: name = "caload"; desc = "([CI)C"; break;
            case Opcodes.SALOAD: name = "saload"; desc = "([SI)S"; break;
            case Opcodes.IASTORE: name = "iastore"; desc = "([III)V"; break;
            case Opcodes.LASTORE: name = "lastore"; desc = "([JIJ)V"; break;
            case Opcodes.FASTORE: name = "fastore"; desc = "([FIF)V"; break;
            case Opcodes.DASTORE: name = "dastore"; desc = "([DID)V"; break;
            case Opcodes.BASTORE: name = "bastore"; desc = "(Ljava/lang/Object;II)V"; break;
            case Opcodes.CASTORE: name = "castore"; desc = "([CIC)V"; break;
            case Opcodes.SASTORE: name = "sastore"; desc = "([SIS)V"; break;
            case Opcodes.AASTORE: name = "aastore"; desc = "([Ljava/lang/Object;ILjava/lang/Object;)V"; break;
            default:
                before(x, new InsnNode(Opcodes.DUP2), call(MEM, "aaload", "([Ljava/lang/Object;I)V"));
                changed = true;
                return;
        }
        in.set(x, call(MEM, name, desc));
        changed = true;
    }

    private void branch(JumpInsnNode j, int src, int dst) {
        int op = j.getOpcode();
        String[] names = {"ifeq", "ifne", "iflt", "ifge", "ifgt", "ifle", "icmpeq", "icmpne", "icmplt", "icmpge",
            "icmpgt", "icmple", "acmpeq", "acmpne"};
        if (op == Opcodes.IFNULL || op == Opcodes.IFNONNULL) {
            before(j, new InsnNode(Opcodes.DUP), push(src), push(dst),
                    call(CODE, op == Opcodes.IFNULL ? "isnull" : "nonnull", "(Ljava/lang/Object;II)V"));
        } else if (op <= Opcodes.IFLE) {
            before(j, new InsnNode(Opcodes.DUP), push(src), push(dst), call(CODE, names[op - Opcodes.IFEQ], "(III)V"));
        } else if (op <= Opcodes.IF_ICMPLE) {
            before(j, new InsnNode(Opcodes.DUP2), push(src), push(dst), call(CODE, names[op - Opcodes.IFEQ], "(IIII)V"));
        } else {
            before(j, new InsnNode(Opcodes.DUP2), push(src), push(dst),
                    call(CODE, names[op - Opcodes.IFEQ], "(Ljava/lang/Object;Ljava/lang/Object;II)V"));
        }
        changed = true;
    }

    private static int target(long base, Map<LabelNode, Integer> labelSlot, LabelNode l) {
        Integer s = labelSlot.get(l);
        return (int) (base + 4L * (s == null ? 0 : s));
    }

    private static int[] switchInfo(AbstractInsnNode x, int src, long base, Map<LabelNode, Integer> labelSlot) {
        if (x instanceof TableSwitchInsnNode) {
            TableSwitchInsnNode t = (TableSwitchInsnNode) x;
            int[] s = new int[4 + t.labels.size()];
            s[0] = 0;
            s[1] = src;
            s[2] = target(base, labelSlot, t.dflt);
            s[3] = t.min;
            for (int i = 0; i < t.labels.size(); i++) {
                s[4 + i] = target(base, labelSlot, t.labels.get(i));
            }
            return s;
        }
        LookupSwitchInsnNode l = (LookupSwitchInsnNode) x;
        int[] s = new int[3 + 2 * l.keys.size()];
        s[0] = 1;
        s[1] = src;
        s[2] = target(base, labelSlot, l.dflt);
        for (int i = 0; i < l.keys.size(); i++) {
            s[3 + 2 * i] = l.keys.get(i);
            s[4 + 2 * i] = target(base, labelSlot, l.labels.get(i));
        }
        return s;
    }

    private static boolean nextIsDup(AbstractInsnNode[] insns, int i) {
        for (int k = i + 1; k < insns.length; k++) {
            if (insns[k].getOpcode() >= 0) {
                return insns[k].getOpcode() == Opcodes.DUP;
            }
        }
        return false;
    }

    private String where(int line) {
        return ci.cn.name.replace('/', '.') + "." + mn.name + ":" + line;
    }

    private void before(AbstractInsnNode x, AbstractInsnNode... add) {
        InsnList l = new InsnList();
        for (AbstractInsnNode a : add) {
            l.add(a);
        }
        in.insertBefore(x, l);
        changed = true;
    }

    private void after(AbstractInsnNode x, AbstractInsnNode... add) {
        InsnList l = new InsnList();
        for (AbstractInsnNode a : add) {
            l.add(a);
        }
        in.insert(x, l);
        changed = true;
    }

    static MethodInsnNode call(String owner, String name, String desc) {
        return new MethodInsnNode(Opcodes.INVOKESTATIC, owner, name, desc, false);
    }

    static AbstractInsnNode push(int v) {
        if (v >= -1 && v <= 5) {
            return new InsnNode(Opcodes.ICONST_0 + v);
        }
        if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
            return new IntInsnNode(Opcodes.BIPUSH, v);
        }
        if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            return new IntInsnNode(Opcodes.SIPUSH, v);
        }
        return new LdcInsnNode(v);
    }

    private static int[] toArray(List<Integer> l) {
        int[] a = new int[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }
}
