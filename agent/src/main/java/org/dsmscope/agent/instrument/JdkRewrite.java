package org.dsmscope.agent.instrument;

import org.dsmscope.agent.core.Sites;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The rewriting of the JDK's classes with {@code jdk=true} that differs from application classes (issue 28, SPEC
 * §3): array accesses get a hook just before them that leaves the operand stack as it was (the class gains no
 * method, so an already loaded class can be retransformed); a new array stored straight into a field is named
 * after it ({@code ArrayBlockingQueue.items}, {@code ConcurrentHashMap.table}) in the data map; and the
 * {@code jdk.internal.misc.Unsafe} accesses of an object or array at an offset (a {@code ConcurrentHashMap}'s
 * {@code tabAt} / {@code casTabAt}) are recorded at that object's address plus the offset, which is the address
 * model's own layout (HotSpot's field offsets and array base).
 */
final class JdkRewrite {
    private static final String HOOKS = "org/dsmscope/agent/rt/JdkMemHooks";
    /** Instructions looked at after a new array for the field it is stored in. */
    private static final int REACH = 8;

    private JdkRewrite() {
    }

    /**
     * {@code SimpleClass.field} if the array that instruction {@code i} creates is stored into an array-typed field
     * within the next few instructions, through casts, copies and local variables only; else null.
     */
    static String storedIn(AbstractInsnNode[] insns, int i) {
        int seen = 0;
        for (int k = i + 1; k < insns.length && seen < REACH; k++) {
            int op = insns[k].getOpcode();
            if (op < 0) {
                continue;
            }
            seen++;
            if (op == Opcodes.PUTFIELD || op == Opcodes.PUTSTATIC) {
                FieldInsnNode f = (FieldInsnNode) insns[k];
                if (!f.desc.startsWith("[")) {
                    return null;
                }
                return simpleName(f.owner) + "." + f.name;
            }
            if (op != Opcodes.CHECKCAST && op != Opcodes.DUP && op != Opcodes.DUP_X1 && op != Opcodes.ASTORE
                    && op != Opcodes.ALOAD) {
                return null;
            }
        }
        return null;
    }

    /** The simple name of an internal class name: {@code java/util/HashMap$TreeNode} gives {@code TreeNode}. */
    static String simpleName(String internal) {
        String owner = internal.substring(internal.lastIndexOf('/') + 1);
        return owner.substring(owner.lastIndexOf('$') + 1);
    }

    /**
     * Inserts before array access {@code x} (opcode {@code op}) a call of {@code JdkMemHooks.element(array, index,
     * kind * 2 + store)} on copies of the array and index, the operand stack unchanged after it.
     */
    static void element(InsnList in, AbstractInsnNode x, int op) {
        boolean store = op >= Opcodes.IASTORE;
        int load = store ? op - (Opcodes.IASTORE - Opcodes.IALOAD) : op;
        int kind;
        switch (load) {
            case Opcodes.IALOAD: kind = 4; break;
            case Opcodes.LALOAD: kind = 6; break;
            case Opcodes.FALOAD: kind = 5; break;
            case Opcodes.DALOAD: kind = 7; break;
            case Opcodes.AALOAD: kind = 8; break;
            case Opcodes.BALOAD: kind = 1; break;
            case Opcodes.CALOAD: kind = 2; break;
            default: kind = 3; break;
        }
        InsnList l = new InsnList();
        if (!store) {
            // [a, i] -> [a, i, a, i]
            l.add(new InsnNode(Opcodes.DUP2));
        } else if (load == Opcodes.LALOAD || load == Opcodes.DALOAD) {
            // [a, i, vv] -> [vv, a, i, vv] -> [vv, a, i] -> [a, i, vv, a, i]
            l.add(new InsnNode(Opcodes.DUP2_X2));
            l.add(new InsnNode(Opcodes.POP2));
            l.add(new InsnNode(Opcodes.DUP2_X2));
        } else {
            // [a, i, v] -> [v, a, i, v] -> [v, a, i] -> [a, i, v, a, i]
            l.add(new InsnNode(Opcodes.DUP_X2));
            l.add(new InsnNode(Opcodes.POP));
            l.add(new InsnNode(Opcodes.DUP2_X1));
        }
        l.add(MethodRewriter.push(kind * 2 + (store ? 1 : 0)));
        l.add(MethodRewriter.call(HOOKS, "element", "(Ljava/lang/Object;II)V"));
        in.insertBefore(x, l);
    }

    /**
     * Inserts the recording of a {@code jdk.internal.misc.Unsafe} access {@code (Object o, long offset, ...)}: a
     * read for {@code get*}, a write for {@code put*}, a read and a write for {@code getAnd*} and {@code
     * compareAndExchange*}, a read and, if it succeeded, a write for {@code compareAndSet*}. The arguments are
     * kept in local variables from {@code scratch} up (straight-line code: no stack map frame sees them). False if
     * {@code m} is no such call.
     */
    static boolean unsafe(InsnList in, MethodInsnNode m, int scratch) {
        if (!m.owner.equals("jdk/internal/misc/Unsafe") || !m.desc.startsWith("(Ljava/lang/Object;J")) {
            return false;
        }
        String n = m.name;
        Type[] args = Type.getArgumentTypes(m.desc);
        Type ret = Type.getReturnType(m.desc);
        int kind;
        Type value;
        if (n.startsWith("get") && !n.startsWith("getAnd") && args.length == 2) {
            kind = 0;
            value = ret;
        } else if (n.startsWith("put") && args.length == 3) {
            kind = 1;
            value = args[2];
        } else if ((n.startsWith("compareAndSet") || n.startsWith("weakCompareAndSet")) && args.length == 4
                && ret.getSort() == Type.BOOLEAN) {
            kind = 3;
            value = args[2];
        } else if ((n.startsWith("getAnd") || n.startsWith("compareAndExchange")) && args.length >= 3) {
            kind = 2;
            value = args[2];
        } else {
            return false;
        }
        if (value.getSort() == Type.VOID || value.getSort() == Type.METHOD) {
            return false;
        }
        int read = MethodRewriter.memType(value.getDescriptor(), false);
        int[] slot = slots(args, scratch);
        InsnList l = new InsnList();
        keep(l, args, slot, Opcodes.ISTORE);
        record(l, slot, kind == 1 ? read | 1 : read, "unsafe", "(Ljava/lang/Object;JI)V");
        if (kind == 2) {
            record(l, slot, read | 1, "unsafe", "(Ljava/lang/Object;JI)V");
        }
        keep(l, args, slot, Opcodes.ILOAD);
        in.insertBefore(m, l);
        if (kind == 3) {
            InsnList after = new InsnList();
            after.add(new InsnNode(Opcodes.DUP));
            record(after, slot, read | 1, "casDone", "(ZLjava/lang/Object;JI)V");
            in.insert(m, after);
        }
        return true;
    }

    /**
     * Inserts the recording of a {@code VarHandle} access call {@code m} whose handle names {@code t} (the receiver's
     * field, or the element of the array at the index argument), like {@link #unsafe}: a read for {@code get*}, a
     * write for {@code set*}, a read and a write for {@code getAnd*}, a read and, if it succeeded, a write for
     * {@code compareAndSet} and its weak forms and for {@code compareAndExchange*} (the witness equals the expected
     * value). False if the call's coordinates do not fit the target.
     */
    static boolean varHandle(InsnList in, MethodInsnNode m, VarHandles.Target t, int scratch) {
        int mode = VarHandles.mode(m.name);
        Type[] args = Type.getArgumentTypes(m.desc);
        int coords = t.isArray() ? 2 : 1;
        if (mode < 0 || args.length < coords || args[0].getSort() != Type.OBJECT && args[0].getSort() != Type.ARRAY
                || t.isArray() && args[1].getSort() != Type.INT) {
            return false;
        }
        int[] slot = slots(args, scratch);
        // one site per direction for a field (its memory type holds the store bit), the array kind for an element
        int[] where = new int[2];
        if (t.isArray()) {
            int kind = elementKind(t.desc.charAt(0));
            where[0] = kind * 2;
            where[1] = kind * 2 + 1;
        } else {
            for (int store = 0; store < 2; store++) {
                where[store] = Sites.register(MethodRewriter.memType(t.desc, store == 1),
                        new String[] {t.owner, t.name, t.desc});
                if (where[store] == 0) {
                    return false;
                }
            }
        }
        InsnList l = new InsnList();
        keep(l, args, slot, Opcodes.ISTORE);
        if (mode != VarHandles.WRITE) {
            access(l, slot, t, where[0], null);
        }
        if (mode == VarHandles.WRITE || mode == VarHandles.READ_WRITE) {
            access(l, slot, t, where[1], null);
        }
        keep(l, args, slot, Opcodes.ILOAD);
        in.insertBefore(m, l);
        if (mode == VarHandles.CAS || mode == VarHandles.EXCHANGE) {
            InsnList after = new InsnList();
            Type ret = Type.getReturnType(m.desc);
            if (mode == VarHandles.CAS) {
                after.add(new InsnNode(Opcodes.DUP));
            } else {
                Type expected = args[coords];
                if (ret.getSize() != expected.getSize() || ret.getSort() == Type.VOID) {
                    return true;
                }
                after.add(new InsnNode(ret.getSize() == 2 ? Opcodes.DUP2 : Opcodes.DUP));
                after.add(new VarInsnNode(expected.getOpcode(Opcodes.ILOAD), slot[coords]));
                after.add(MethodRewriter.call(HOOKS, "same", "(" + erased(expected) + erased(expected) + ")Z"));
            }
            access(after, slot, t, where[1], "If");
            in.insert(m, after);
        }
        return true;
    }

    /** The hook's parameter type for a value of type {@code v}: Object, int, long, float or double. */
    private static String erased(Type v) {
        switch (v.getSort()) {
            case Type.OBJECT: case Type.ARRAY: return "Ljava/lang/Object;";
            case Type.LONG: return "J";
            case Type.FLOAT: return "F";
            case Type.DOUBLE: return "D";
            default: return "I";
        }
    }

    /** {@code Layouts.kindOf}'s array kind of an element descriptor. */
    private static int elementKind(char d) {
        switch (d) {
            case 'Z': return 0;
            case 'B': return 1;
            case 'C': return 2;
            case 'S': return 3;
            case 'I': return 4;
            case 'F': return 5;
            case 'J': return 6;
            case 'D': return 7;
            default: return 8;
        }
    }

    /**
     * Adds the call of {@code JdkMemHooks.field(o, site)} or {@code element(a, i, code)} ({@code suffix} "If": the
     * conditional form, a boolean already on the stack) for the coordinates kept in {@code slot}.
     */
    private static void access(InsnList l, int[] slot, VarHandles.Target t, int where, String suffix) {
        String s = suffix == null ? "" : suffix;
        String z = suffix == null ? "" : "Z";
        l.add(new VarInsnNode(Opcodes.ALOAD, slot[0]));
        if (t.isArray()) {
            l.add(new VarInsnNode(Opcodes.ILOAD, slot[1]));
            l.add(MethodRewriter.push(where));
            l.add(MethodRewriter.call(HOOKS, "element" + s, "(" + z + "Ljava/lang/Object;II)V"));
        } else {
            l.add(MethodRewriter.push(where));
            l.add(MethodRewriter.call(HOOKS, "field" + s, "(" + z + "Ljava/lang/Object;I)V"));
        }
    }

    /** The local variables, from {@code scratch} up, that keep a call's arguments while its access is recorded. */
    private static int[] slots(Type[] args, int scratch) {
        int[] slot = new int[args.length];
        int next = scratch;
        for (int i = 0; i < args.length; i++) {
            slot[i] = next;
            next += args[i].getSize();
        }
        return slot;
    }

    /** Stores the arguments from the stack into their slots ({@code ISTORE}, last first) or loads them back. */
    private static void keep(InsnList l, Type[] args, int[] slot, int op) {
        if (op == Opcodes.ISTORE) {
            for (int i = args.length - 1; i >= 0; i--) {
                l.add(new VarInsnNode(args[i].getOpcode(op), slot[i]));
            }
        } else {
            for (int i = 0; i < args.length; i++) {
                l.add(new VarInsnNode(args[i].getOpcode(op), slot[i]));
            }
        }
    }

    private static void record(InsnList l, int[] slot, int type, String hook, String desc) {
        l.add(new VarInsnNode(Opcodes.ALOAD, slot[0]));
        l.add(new VarInsnNode(Opcodes.LLOAD, slot[1]));
        l.add(MethodRewriter.push(type));
        l.add(MethodRewriter.call(HOOKS, hook, desc));
    }
}
