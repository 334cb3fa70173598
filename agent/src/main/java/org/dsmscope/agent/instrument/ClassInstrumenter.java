package org.dsmscope.agent.instrument;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Rewrites one application class for a level (seed 000 §2, SPEC §3): each method through {@link MethodRewriter},
 * plus the generated call wrappers of {@link CallSites.Wrap} calls. Works on the tree API without computing
 * frames (no class is loaded while transforming): inserted code adds no branch targets, except the catch-all
 * handler of synchronized methods, whose frame follows from the method descriptor.
 */
public final class ClassInstrumenter {
    final ClassNode cn;
    final int level;
    final boolean itf;
    final int version;
    /** A JDK class ({@code jdk=true}): memory accesses only, through {@code rt.JdkMemHooks}; no method is added. */
    final boolean jdk;
    private final Map<String, String> wrappers = new HashMap<>();
    private final List<MethodNode> added = new ArrayList<>();

    private ClassInstrumenter(ClassNode cn, int level, boolean jdk) {
        this.cn = cn;
        this.level = level;
        this.jdk = jdk;
        this.itf = (cn.access & Opcodes.ACC_INTERFACE) != 0;
        this.version = cn.version & 0xFFFF;
    }

    /** The instrumented class file, or null to keep the original. */
    public static byte[] instrument(byte[] bytes, int level) {
        return instrument(bytes, level, false);
    }

    /**
     * The JDK class file rewritten for {@code jdk=true} (level 2's field and array accesses and named array
     * allocations, nothing else; fit for retransforming a loaded class), or null to keep the original.
     */
    public static byte[] instrumentJdk(byte[] bytes) {
        return instrument(bytes, 2, true);
    }

    private static byte[] instrument(byte[] bytes, int level, boolean jdk) {
        ClassReader cr = new ClassReader(bytes);
        ClassNode cn = new ClassNode();
        cr.accept(cn, 0);
        if ((cn.access & Opcodes.ACC_MODULE) != 0) {
            return null;
        }
        ClassInstrumenter ci = new ClassInstrumenter(cn, level, jdk);
        if (jdk) {
            VarHandles.scan(cn);
        }
        boolean changed = false;
        for (MethodNode mn : new ArrayList<>(cn.methods)) {
            if (mn.instructions.size() > 0) {
                changed |= new MethodRewriter(ci, mn).rewrite();
            }
        }
        if (!changed) {
            return null;
        }
        cn.methods.addAll(ci.added);
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cn.accept(cw);
        return cw.toByteArray();
    }

    /** True if wrappers (private static methods) can be added to this class. */
    boolean canWrap() {
        return !itf && !jdk;
    }

    /** The wrapper method (in this class) for a wrapped call; creates it on first use. */
    String wrapper(MethodInsnNode call, CallSites.Wrap rule) {
        String key = call.getOpcode() + " " + call.owner + "." + call.name + call.desc;
        String name = wrappers.get(key);
        if (name != null) {
            return name;
        }
        name = "dsm$wrap$" + wrappers.size();
        wrappers.put(key, name);
        boolean isStatic = call.getOpcode() == Opcodes.INVOKESTATIC;
        Type[] args = Type.getArgumentTypes(call.desc);
        Type ret = Type.getReturnType(call.desc);
        List<Type> params = new ArrayList<>();
        if (!isStatic) {
            params.add(Type.getObjectType(call.owner));
        }
        for (Type a : args) {
            params.add(a);
        }
        String desc = Type.getMethodDescriptor(ret, params.toArray(new Type[0]));
        MethodNode m = new MethodNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, name, desc,
                null, null);
        InsnList in = m.instructions;
        int[] slot = new int[params.size()];
        int next = 0;
        for (int i = 0; i < params.size(); i++) {
            slot[i] = next;
            next += params.get(i).getSize();
        }
        int t0 = next;
        int res = next + 2;
        in.add(new MethodInsnNode(Opcodes.INVOKESTATIC, CallSites.SYNC, "now", "()J", false));
        in.add(new VarInsnNode(Opcodes.LSTORE, t0));
        for (int i = 0; i < params.size(); i++) {
            in.add(new VarInsnNode(params.get(i).getOpcode(Opcodes.ILOAD), slot[i]));
        }
        in.add(new MethodInsnNode(call.getOpcode(), call.owner, call.name, call.desc, call.itf));
        if (ret.getSort() != Type.VOID) {
            in.add(new VarInsnNode(ret.getOpcode(Opcodes.ISTORE), res));
        }
        int argBase = isStatic ? 0 : 1;
        if (rule.kind == 0) {
            // ldcw(target, index, t0)
            boolean vh = call.owner.equals("java/lang/invoke/VarHandle");
            if (vh && args.length > 0 && (args[0].getSort() == Type.OBJECT || args[0].getSort() == Type.ARRAY)) {
                in.add(new VarInsnNode(Opcodes.ALOAD, slot[argBase]));
                if (args[0].getSort() == Type.ARRAY && args.length > 1 && args[1].getSort() == Type.INT) {
                    in.add(new VarInsnNode(Opcodes.ILOAD, slot[argBase + 1]));
                    in.add(new InsnNode(Opcodes.I2L));
                } else {
                    in.add(new LdcInsnNode(-1L));
                }
            } else {
                in.add(new VarInsnNode(Opcodes.ALOAD, slot[0]));
                in.add(new LdcInsnNode(-1L));
            }
            in.add(new VarInsnNode(Opcodes.LLOAD, t0));
            in.add(new MethodInsnNode(Opcodes.INVOKESTATIC, CallSites.CALLS, "ldcw", "(Ljava/lang/Object;JJ)V", false));
        } else {
            // fileIo(write, stream, buf, off, bytes, mode, t0)
            in.add(new InsnNode(rule.kind == 2 ? Opcodes.ICONST_1 : Opcodes.ICONST_0));
            if (isStatic) {
                in.add(new InsnNode(Opcodes.ACONST_NULL));
            } else {
                in.add(new VarInsnNode(Opcodes.ALOAD, slot[0]));
            }
            if (rule.buf == 9) {
                in.add(new VarInsnNode(Opcodes.ALOAD, res));
            } else if (rule.buf >= 0) {
                in.add(new VarInsnNode(Opcodes.ALOAD, slot[argBase + rule.buf]));
            } else {
                in.add(new InsnNode(Opcodes.ACONST_NULL));
            }
            if (rule.off >= 0) {
                in.add(new VarInsnNode(Opcodes.ILOAD, slot[argBase + rule.off]));
                in.add(new InsnNode(Opcodes.I2L));
            } else {
                in.add(new LdcInsnNode(0L));
            }
            int mode;
            if (rule.bytes >= 0) {
                in.add(new VarInsnNode(Opcodes.ILOAD, slot[argBase + rule.bytes]));
                in.add(new InsnNode(Opcodes.I2L));
                mode = 0;
            } else if (rule.bytes == -1) {
                in.add(new VarInsnNode(Opcodes.ILOAD, res));
                in.add(new InsnNode(Opcodes.I2L));
                mode = 0;
            } else if (rule.bytes == -3) {
                in.add(new VarInsnNode(Opcodes.ILOAD, res));
                in.add(new InsnNode(Opcodes.I2L));
                mode = 1;
            } else if (rule.bytes == -2) {
                in.add(new LdcInsnNode(0L));
                mode = 2;
            } else {
                in.add(new LdcInsnNode(1L));
                mode = 0;
            }
            in.add(new LdcInsnNode(mode));
            in.add(new VarInsnNode(Opcodes.LLOAD, t0));
            in.add(new MethodInsnNode(Opcodes.INVOKESTATIC, CallSites.CALLS, "fileIo",
                    "(ZLjava/lang/Object;Ljava/lang/Object;JJIJ)V", false));
        }
        if (ret.getSort() != Type.VOID) {
            in.add(new VarInsnNode(ret.getOpcode(Opcodes.ILOAD), res));
        }
        in.add(new InsnNode(ret.getOpcode(Opcodes.IRETURN)));
        added.add(m);
        return name;
    }
}
