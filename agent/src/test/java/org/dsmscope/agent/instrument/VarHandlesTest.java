package org.dsmscope.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicVerifier;

/**
 * {@link VarHandles} on the running JDK's own {@code java.util} and {@code java.util.concurrent} classes (issue 28,
 * {@code jdk=true}): the handles their class initializers create are resolved to the fields and arrays they name,
 * every access call site of the instrumented classes finds its handle (the backward walk agreeing with ASM's source
 * analysis wherever it answers), and the classes rewritten with the
 * recording of those accesses pass ASM's bytecode verifier (stack and local types along every path).
 */
class VarHandlesTest {
    private static final List<String> CLASSES = new ArrayList<>();
    private static final List<byte[]> BYTES = new ArrayList<>();

    /** The instrumented JDK classes in name order, an outer class before its nested ones (as Bootstrap retransforms). */
    @BeforeAll
    static void readJdkClasses() throws IOException {
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        List<Path> files = new ArrayList<>();
        for (String pkg : new String[] {"java/util", "java/util/concurrent"}) {
            try (Stream<Path> s = Files.list(jrt.getPath("/modules/java.base/" + pkg))) {
                s.filter(p -> p.toString().endsWith(".class")).forEach(files::add);
            }
        }
        // by class name, not file name: "Queue" before "Queue$Node" ('$' sorts before ".class")
        files.sort((a, b) -> a.toString().replace(".class", "").compareTo(b.toString().replace(".class", "")));
        for (Path p : files) {
            String name = p.toString().substring("/modules/java.base/".length()).replace(".class", "");
            if (Transformer.jdkTarget(name)) {
                CLASSES.add(name);
                BYTES.add(Files.readAllBytes(p));
            }
        }
    }

    private static ClassNode node(byte[] b) {
        ClassNode cn = new ClassNode();
        new ClassReader(b).accept(cn, 0);
        return cn;
    }

    @Test
    void classInitializerHandles_nameTheirFieldsAndArrays() {
        for (byte[] b : BYTES) {
            VarHandles.scan(node(b));
        }
        VarHandles.Target result = VarHandles.constant("java/util/concurrent/CompletableFuture.RESULT");
        assertNotNull(result);
        assertEquals("java/util/concurrent/CompletableFuture", result.owner);
        assertEquals("result", result.name);
        assertEquals("Ljava/lang/Object;", result.desc);
        assertFalse(result.isStatic || result.isArray());
        VarHandles.Target item = VarHandles.constant("java/util/concurrent/ConcurrentLinkedQueue.ITEM");
        assertEquals("java/util/concurrent/ConcurrentLinkedQueue$Node", item.owner);
        assertEquals("item", item.name);
        // int.class is compiled as Integer.TYPE
        VarHandles.Target state = VarHandles.constant("java/util/concurrent/FutureTask.STATE");
        assertEquals("state", state.name);
        assertEquals("I", state.desc);
        VarHandles.Target slots = VarHandles.constant("java/util/concurrent/ForkJoinPool$WorkQueue.QA");
        assertTrue(slots.isArray());
        assertEquals("Ljava/util/concurrent/ForkJoinTask;", slots.desc);
        assertNull(VarHandles.constant("java/util/concurrent/CompletableFuture.NOSUCH"));
    }

    @Test
    void everyAccessCallSite_findsItsHandle() {
        int before = VarHandles.unrecordedSites();
        int sites = 0;
        for (byte[] b : BYTES) {
            ClassNode cn = node(b);
            VarHandles.scan(cn);
            for (MethodNode mn : cn.methods) {
                Map<AbstractInsnNode, VarHandles.Target> s = VarHandles.sites(cn.name, mn);
                sites += s == null ? 0 : s.size();
            }
        }
        assertTrue(sites > 100, "VarHandle access call sites resolved: " + sites);
        assertEquals(before, VarHandles.unrecordedSites(), "call sites whose handle is unknown");
    }

    @Test
    void backwardWalk_findsTheSameHandleAsTheSourceAnalysis_orLeavesItToIt() {
        int walked = 0;
        int sites = 0;
        for (byte[] b : BYTES) {
            ClassNode cn = node(b);
            for (MethodNode mn : cn.methods) {
                VarHandles.Flow flow = new VarHandles.Flow(cn.name, mn);
                for (AbstractInsnNode x : mn.instructions) {
                    int k;
                    if (x instanceof MethodInsnNode && ((MethodInsnNode) x).owner.equals("java/lang/invoke/VarHandle")
                            && VarHandles.mode(((MethodInsnNode) x).name) >= 0) {
                        k = org.objectweb.asm.Type.getArgumentTypes(((MethodInsnNode) x).desc).length;
                    } else if (x instanceof FieldInsnNode && x.getOpcode() == Opcodes.PUTSTATIC
                            && ((FieldInsnNode) x).desc.equals("Ljava/lang/invoke/VarHandle;")) {
                        k = 0;
                    } else {
                        continue;
                    }
                    sites++;
                    AbstractInsnNode w = flow.walk(x, k);
                    if (w != null) {
                        walked++;
                        assertSame(flow.analysed(x, k), w, cn.name + "." + mn.name + " at " + mn.instructions.indexOf(x));
                    }
                }
            }
        }
        assertTrue(walked > sites / 2, "the walk answers " + walked + " of " + sites);
    }

    @Test
    void classesWithVarHandleAccesses_rewrittenPassTheVerifier() throws AnalyzerException {
        int checked = 0;
        for (byte[] b : BYTES) {
            ClassNode original = node(b);
            if (!uses(original)) {
                continue;
            }
            byte[] rewritten = ClassInstrumenter.instrumentJdk(b);
            assertNotNull(rewritten, original.name);
            ClassNode cn = node(rewritten);
            for (MethodNode mn : cn.methods) {
                if (mn.instructions.size() > 0) {
                    try {
                        new Analyzer<>(new BasicVerifier()).analyze(cn.name, mn);
                    } catch (AnalyzerException e) {
                        throw new AssertionError(cn.name + "." + mn.name + mn.desc + ": " + e.getMessage(), e);
                    }
                }
            }
            checked++;
        }
        assertTrue(checked >= 10, "classes checked: " + checked);
    }

    private static boolean uses(ClassNode cn) {
        for (MethodNode mn : cn.methods) {
            for (AbstractInsnNode x : mn.instructions) {
                if (x instanceof MethodInsnNode && ((MethodInsnNode) x).owner.equals("java/lang/invoke/VarHandle")) {
                    return true;
                }
            }
        }
        return false;
    }
}
