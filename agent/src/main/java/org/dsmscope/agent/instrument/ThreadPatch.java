package org.dsmscope.agent.instrument;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Patches {@code java.lang.Thread} when the agent retransforms it (method bodies only): {@code start()} calls
 * {@code ThreadHooks.starting(this)}, {@code exit()} calls {@code ThreadHooks.exiting()}, and {@code join(long)}
 * calls {@code ThreadHooks.joining(this, millis)} on entry and {@code ThreadHooks.joined(this)} before each return.
 */
final class ThreadPatch {
    private static final String HOOKS = "org/dsmscope/agent/rt/ThreadHooks";

    private ThreadPatch() {
    }

    static byte[] patch(byte[] bytes) {
        ClassReader cr = new ClassReader(bytes);
        ClassWriter cw = new ClassWriter(cr, ClassWriter.COMPUTE_MAXS);
        cr.accept(new ClassVisitor(Opcodes.ASM9, cw) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] ex) {
                MethodVisitor mv = super.visitMethod(access, name, desc, sig, ex);
                if (name.equals("start") && desc.equals("()V")) {
                    return new MethodVisitor(Opcodes.ASM9, mv) {
                        @Override
                        public void visitCode() {
                            super.visitCode();
                            super.visitVarInsn(Opcodes.ALOAD, 0);
                            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "starting", "(Ljava/lang/Thread;)V", false);
                        }
                    };
                }
                if (name.equals("exit") && desc.equals("()V")) {
                    return new MethodVisitor(Opcodes.ASM9, mv) {
                        @Override
                        public void visitCode() {
                            super.visitCode();
                            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "exiting", "()V", false);
                        }
                    };
                }
                if (name.equals("join") && desc.equals("(J)V")) {
                    return new MethodVisitor(Opcodes.ASM9, mv) {
                        @Override
                        public void visitCode() {
                            super.visitCode();
                            super.visitVarInsn(Opcodes.ALOAD, 0);
                            super.visitVarInsn(Opcodes.LLOAD, 1);
                            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "joining", "(Ljava/lang/Thread;J)V",
                                    false);
                        }

                        @Override
                        public void visitInsn(int op) {
                            if (op == Opcodes.RETURN) {
                                super.visitVarInsn(Opcodes.ALOAD, 0);
                                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "joined", "(Ljava/lang/Thread;)V",
                                        false);
                            }
                            super.visitInsn(op);
                        }
                    };
                }
                return mv;
            }
        }, 0);
        return cw.toByteArray();
    }
}
