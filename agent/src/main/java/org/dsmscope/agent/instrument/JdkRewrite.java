package org.dsmscope.agent.instrument;

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
        int[] slot = new int[args.length];
        int next = scratch;
        for (int i = 0; i < args.length; i++) {
            slot[i] = next;
            next += args[i].getSize();
        }
        InsnList l = new InsnList();
        for (int i = args.length - 1; i >= 0; i--) {
            l.add(new VarInsnNode(args[i].getOpcode(Opcodes.ISTORE), slot[i]));
        }
        record(l, slot, kind == 1 ? read | 1 : read, "unsafe", "(Ljava/lang/Object;JI)V");
        if (kind == 2) {
            record(l, slot, read | 1, "unsafe", "(Ljava/lang/Object;JI)V");
        }
        for (int i = 0; i < args.length; i++) {
            l.add(new VarInsnNode(args[i].getOpcode(Opcodes.ILOAD), slot[i]));
        }
        in.insertBefore(m, l);
        if (kind == 3) {
            InsnList after = new InsnList();
            after.add(new InsnNode(Opcodes.DUP));
            record(after, slot, read | 1, "casDone", "(ZLjava/lang/Object;JI)V");
            in.insert(m, after);
        }
        return true;
    }

    private static void record(InsnList l, int[] slot, int type, String hook, String desc) {
        l.add(new VarInsnNode(Opcodes.ALOAD, slot[0]));
        l.add(new VarInsnNode(Opcodes.LLOAD, slot[1]));
        l.add(MethodRewriter.push(type));
        l.add(MethodRewriter.call(HOOKS, hook, desc));
    }
}
