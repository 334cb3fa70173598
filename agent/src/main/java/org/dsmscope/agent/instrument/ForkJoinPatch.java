package org.dsmscope.agent.instrument;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Patches {@code java.util.concurrent.ForkJoinTask} and {@code CountedCompleter} (method bodies only) so that fork /
 * join structure is recorded where the JDK itself forks and joins (parallel streams; issue 28): {@code fork()},
 * {@code doExec()} and the completers' {@code tryComplete}, {@code propagateCompletion}, {@code complete},
 * {@code quietlyCompleteRoot} call {@code ForkJoinHooks} on entry, {@code doExec()} also right after {@code
 * exec()} returns, and {@code join}, {@code invoke}, {@code get} (both), {@code quietlyJoin}, {@code quietlyInvoke}
 * the pool's joins of {@code invoke} and the static {@code invokeAll(a, b)} / {@code invokeAll(tasks...)} before
 * each normal return; {@code ForkJoinPool.externalSubmit} (submit, execute, invoke from outside the pool) calls the
 * fork hook on entry.
 */
final class ForkJoinPatch {
    static final String TASK = "java/util/concurrent/ForkJoinTask";
    static final String COMPLETER = "java/util/concurrent/CountedCompleter";
    static final String POOL = "java/util/concurrent/ForkJoinPool";
    private static final String HOOKS = "org/dsmscope/agent/rt/ForkJoinHooks";
    private static final String TASK_ARG = "(L" + TASK + ";)V";

    private ForkJoinPatch() {
    }

    /** True for the classes this patch changes. */
    static boolean patches(String name) {
        return name.equals(TASK) || name.equals(COMPLETER) || name.equals(POOL);
    }

    static byte[] patch(String className, byte[] bytes) {
        boolean task = className.equals(TASK);
        ClassReader cr = new ClassReader(bytes);
        ClassWriter cw = new ClassWriter(cr, ClassWriter.COMPUTE_MAXS);
        cr.accept(new ClassVisitor(Opcodes.ASM9, cw) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] ex) {
                MethodVisitor mv = super.visitMethod(access, name, desc, sig, ex);
                String m = name + desc;
                if (className.equals(POOL)) {
                    // a task submitted to a pool from outside it (submit, execute, invoke): as a fork
                    return m.equals("externalSubmit(L" + TASK + ";)L" + TASK + ";")
                            ? onEntry(mv, 1, "forking", TASK_ARG) : mv;
                }
                if (!task) {
                    boolean completes = m.equals("tryComplete()V") || m.equals("propagateCompletion()V")
                            || m.equals("complete(Ljava/lang/Object;)V") || m.equals("quietlyCompleteRoot()V");
                    return completes ? onEntry(mv, 0, "completing", "(L" + COMPLETER + ";)V") : mv;
                }
                switch (m) {
                    case "fork()Ljava/util/concurrent/ForkJoinTask;":
                        return onEntry(mv, 0, "forking", TASK_ARG);
                    case "doExec()I":
                        return new MethodVisitor(Opcodes.ASM9, onEntry(mv, 0, "executing", TASK_ARG)) {
                            @Override
                            public void visitMethodInsn(int op, String owner, String n, String d, boolean itf) {
                                super.visitMethodInsn(op, owner, n, d, itf);
                                if (n.equals("exec") && d.equals("()Z")) {
                                    super.visitVarInsn(Opcodes.ALOAD, 0);
                                    super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "executed", TASK_ARG, false);
                                }
                            }
                        };
                    case "join()Ljava/lang/Object;":
                    case "invoke()Ljava/lang/Object;":
                    case "get()Ljava/lang/Object;":
                    case "get(JLjava/util/concurrent/TimeUnit;)Ljava/lang/Object;":
                    case "quietlyJoin()V":
                    case "quietlyInvoke()V":
                    case "joinForPoolInvoke(L" + POOL + ";)Ljava/lang/Object;":
                    case "awaitPoolInvoke(L" + POOL + ";)V":
                    case "awaitPoolInvoke(L" + POOL + ";J)V":
                        return beforeReturn(mv, 1, "joined", TASK_ARG);
                    case "invokeAll(Ljava/util/concurrent/ForkJoinTask;Ljava/util/concurrent/ForkJoinTask;)V":
                        return beforeReturn(mv, 2, "joinedBoth", "(L" + TASK + ";L" + TASK + ";)V");
                    case "invokeAll([Ljava/util/concurrent/ForkJoinTask;)V":
                        return beforeReturn(mv, 1, "joinedAll", "([L" + TASK + ";)V");
                    default:
                        return mv;
                }
            }
        }, 0);
        return cw.toByteArray();
    }

    /** Calls {@code hook} with local slot {@code slot} (0: this) at the start of the method. */
    private static MethodVisitor onEntry(MethodVisitor mv, int slot, String hook, String desc) {
        return new MethodVisitor(Opcodes.ASM9, mv) {
            @Override
            public void visitCode() {
                super.visitCode();
                super.visitVarInsn(Opcodes.ALOAD, slot);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, hook, desc, false);
            }
        };
    }

    /** Calls {@code hook} with local slots 0 … args − 1 before each normal return. */
    private static MethodVisitor beforeReturn(MethodVisitor mv, int args, String hook, String desc) {
        return new MethodVisitor(Opcodes.ASM9, mv) {
            @Override
            public void visitInsn(int op) {
                if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
                    for (int i = 0; i < args; i++) {
                        super.visitVarInsn(Opcodes.ALOAD, i);
                    }
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, hook, desc, false);
                }
                super.visitInsn(op);
            }
        };
    }
}
