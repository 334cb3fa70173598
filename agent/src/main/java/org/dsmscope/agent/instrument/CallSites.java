package org.dsmscope.agent.instrument;

import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;

/**
 * Which calls level 1 intercepts (SPEC §3's table), by the call instruction's owner, name and descriptor.
 * A {@link Replace} swaps the call for a static hook with the receiver as first argument that performs the same
 * call; a {@link Wrap} calls a generated wrapper that makes the call and then records it (atomics, file I/O),
 * for methods with many descriptors.
 */
final class CallSites {
    static final String SYNC = "org/dsmscope/agent/rt/SyncHooks";
    static final String CALLS = "org/dsmscope/agent/rt/CallHooks";
    static final String PARK = "org/dsmscope/agent/rt/ParkHooks";
    static final String JUC = "org/dsmscope/agent/rt/JucHooks";
    static final String QUEUE = "org/dsmscope/agent/rt/QueueHooks";
    static final String CF = "org/dsmscope/agent/rt/CfHooks";
    static final String COLLECTION = "org/dsmscope/agent/rt/CollectionHooks";
    static final String STAGE = "org/dsmscope/agent/rt/StageHooks";

    /** A replacement: the static hook {@code owner.name desc}. */
    static final class Replace {
        final String owner;
        final String name;
        final String desc;
        /** The call replaced is a static method's (the hook takes the same arguments), else an instance method's. */
        final boolean ofStatic;

        Replace(String owner, String name, String desc) {
            this(owner, name, desc, false);
        }

        Replace(String owner, String name, String desc, boolean ofStatic) {
            this.owner = owner;
            this.name = name;
            this.desc = desc;
            this.ofStatic = ofStatic;
        }
    }

    /** A wrapped call: atomics, or a file read/write with the rule that finds buffer, offset and bytes. */
    static final class Wrap {
        /** 0 atomic, 1 file read, 2 file write. */
        final int kind;
        /** Buffer: -1 none, 0.. argument index, 9 the result. */
        final int buf;
        /** Offset argument index, -1 none. */
        final int off;
        /** Bytes: -1 the result, -2 the buffer's length, -3 one byte if the result is not negative, -4 one, 0.. argument index. */
        final int bytes;

        Wrap(int kind, int buf, int off, int bytes) {
            this.kind = kind;
            this.buf = buf;
            this.off = off;
            this.bytes = bytes;
        }
    }

    private static final Map<String, Replace> REPLACE = new HashMap<>();
    private static final Map<String, Wrap> WRAP = new HashMap<>();
    private static final Map<String, Boolean> ATOMIC_OWNERS = new HashMap<>();

    static {
        String lock = "java/util/concurrent/locks/Lock";
        String[] lockOwners = {lock, "java/util/concurrent/locks/ReentrantLock",
            "java/util/concurrent/locks/ReentrantReadWriteLock$ReadLock",
            "java/util/concurrent/locks/ReentrantReadWriteLock$WriteLock"};
        for (String o : lockOwners) {
            replace(o, "lock", "()V", SYNC, "lock", lock);
            replace(o, "lockInterruptibly", "()V", SYNC, "lockInterruptibly", lock);
            replace(o, "tryLock", "()Z", SYNC, "tryLock", lock);
            replace(o, "tryLock", "(JLjava/util/concurrent/TimeUnit;)Z", SYNC, "tryLock", lock);
            replace(o, "unlock", "()V", SYNC, "unlock", lock);
            replace(o, "newCondition", "()Ljava/util/concurrent/locks/Condition;", SYNC, "newCondition", lock);
        }
        String sl = "java/util/concurrent/locks/StampedLock";
        for (String m : new String[] {"writeLock", "writeLockInterruptibly", "tryWriteLock", "readLock",
            "readLockInterruptibly", "tryReadLock"}) {
            replace(sl, m, "()J", SYNC, "stamped" + Character.toUpperCase(m.charAt(0)) + m.substring(1), sl);
        }
        replace(sl, "tryWriteLock", "(JLjava/util/concurrent/TimeUnit;)J", SYNC, "stampedTryWriteLock", sl);
        replace(sl, "tryReadLock", "(JLjava/util/concurrent/TimeUnit;)J", SYNC, "stampedTryReadLock", sl);
        for (String m : new String[] {"unlockWrite", "unlockRead", "unlock"}) {
            replace(sl, m, "(J)V", SYNC, "stamped" + Character.toUpperCase(m.charAt(0)) + m.substring(1), sl);
        }
        replace(sl, "tryUnlockWrite", "()Z", SYNC, "stampedTryUnlockWrite", sl);
        replace(sl, "tryUnlockRead", "()Z", SYNC, "stampedTryUnlockRead", sl);
        for (String m : new String[] {"tryConvertToWriteLock", "tryConvertToReadLock", "tryConvertToOptimisticRead"}) {
            replace(sl, m, "(J)J", SYNC, "stamped" + Character.toUpperCase(m.charAt(0)) + m.substring(1), sl);
        }
        String cond = "java/util/concurrent/locks/Condition";
        for (String o : new String[] {cond, "java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject"}) {
            replace(o, "await", "()V", SYNC, "await", cond);
            replace(o, "awaitUninterruptibly", "()V", SYNC, "awaitUninterruptibly", cond);
            replace(o, "await", "(JLjava/util/concurrent/TimeUnit;)Z", SYNC, "await", cond);
            replace(o, "awaitNanos", "(J)J", SYNC, "awaitNanos", cond);
            replace(o, "awaitUntil", "(Ljava/util/Date;)Z", SYNC, "awaitUntil", cond);
            replace(o, "signal", "()V", SYNC, "signal", cond);
            replace(o, "signalAll", "()V", SYNC, "signalAll", cond);
        }
        String cb = "java/util/concurrent/CyclicBarrier";
        replace(cb, "await", "()I", CALLS, "barrierAwait", cb);
        replace(cb, "await", "(JLjava/util/concurrent/TimeUnit;)I", CALLS, "barrierAwait", cb);
        String ph = "java/util/concurrent/Phaser";
        replace(ph, "arriveAndAwaitAdvance", "()I", CALLS, "arriveAndAwaitAdvance", ph);
        String cdl = "java/util/concurrent/CountDownLatch";
        replace(cdl, "countDown", "()V", CALLS, "countDown", cdl);
        replace(cdl, "await", "()V", CALLS, "latchAwait", cdl);
        replace(cdl, "await", "(JLjava/util/concurrent/TimeUnit;)Z", CALLS, "latchAwait", cdl);
        String sem = "java/util/concurrent/Semaphore";
        replace(sem, "acquire", "()V", CALLS, "acquire", sem);
        replace(sem, "acquire", "(I)V", CALLS, "acquire", sem);
        replace(sem, "acquireUninterruptibly", "()V", CALLS, "acquireUninterruptibly", sem);
        replace(sem, "acquireUninterruptibly", "(I)V", CALLS, "acquireUninterruptibly", sem);
        replace(sem, "tryAcquire", "()Z", CALLS, "tryAcquire", sem);
        replace(sem, "tryAcquire", "(I)Z", CALLS, "tryAcquire", sem);
        replace(sem, "tryAcquire", "(JLjava/util/concurrent/TimeUnit;)Z", CALLS, "tryAcquire", sem);
        replace(sem, "tryAcquire", "(IJLjava/util/concurrent/TimeUnit;)Z", CALLS, "tryAcquire", sem);
        replace(sem, "release", "()V", CALLS, "release", sem);
        replace(sem, "release", "(I)V", CALLS, "release", sem);
        String ju = "java/util/concurrent/";
        String executor = ju + "Executor";
        String service = ju + "ExecutorService";
        String future = "Ljava/util/concurrent/Future;";
        for (String o : new String[] {executor, service, ju + "ScheduledExecutorService",
            ju + "AbstractExecutorService", ju + "ThreadPoolExecutor", ju + "ScheduledThreadPoolExecutor"}) {
            replace(o, "execute", "(Ljava/lang/Runnable;)V", JUC, "execute", executor);
            if (!o.equals(executor)) {
                replace(o, "submit", "(Ljava/lang/Runnable;)" + future, JUC, "submit", service);
                replace(o, "submit", "(Ljava/lang/Runnable;Ljava/lang/Object;)" + future, JUC, "submit", service);
                replace(o, "submit", "(Ljava/util/concurrent/Callable;)" + future, JUC, "submit", service);
                replace(o, "invokeAll", "(Ljava/util/Collection;)Ljava/util/List;", JUC, "invokeAll", service);
                replace(o, "invokeAll", "(Ljava/util/Collection;JLjava/util/concurrent/TimeUnit;)Ljava/util/List;",
                        JUC, "invokeAll", service);
                replace(o, "invokeAny", "(Ljava/util/Collection;)Ljava/lang/Object;", JUC, "invokeAny", service);
                replace(o, "invokeAny", "(Ljava/util/Collection;JLjava/util/concurrent/TimeUnit;)Ljava/lang/Object;",
                        JUC, "invokeAny", service);
            }
        }
        String cf = ju + "CompletableFuture";
        String cfDesc = ")Ljava/util/concurrent/CompletableFuture;";
        for (String m : new String[] {"supplyAsync(Ljava/util/function/Supplier;", "runAsync(Ljava/lang/Runnable;"}) {
            String name = m.substring(0, m.indexOf('('));
            String args = m.substring(m.indexOf('('));
            REPLACE.put(cf + "." + m + cfDesc, new Replace(JUC, name, args + cfDesc, true));
            REPLACE.put(cf + "." + m + "Ljava/util/concurrent/Executor;" + cfDesc,
                    new Replace(JUC, name, args + "Ljava/util/concurrent/Executor;" + cfDesc, true));
        }
        replace(cf, "join", "()Ljava/lang/Object;", JUC, "join", cf);
        // CompletableFuture's dependants and completions (rt.CfHooks), each also ...Async with and without an executor
        String cs = "Ljava/util/concurrent/CompletionStage;";
        String fn = "Ljava/util/function/Function;";
        String bifn = "Ljava/util/function/BiFunction;";
        String co = "Ljava/util/function/Consumer;";
        String bico = "Ljava/util/function/BiConsumer;";
        String run = "Ljava/lang/Runnable;";
        String[] deps = {"thenApply", fn, "thenAccept", co, "thenRun", run, "thenCombine", cs + bifn,
            "thenAcceptBoth", cs + bico, "runAfterBoth", cs + run, "applyToEither", cs + fn, "acceptEither", cs + co,
            "runAfterEither", cs + run, "handle", bifn, "whenComplete", bico, "thenCompose", fn, "exceptionally", fn};
        for (int i = 0; i < deps.length; i += 2) {
            String args = "(" + deps[i + 1];
            replace(cf, deps[i], args + cfDesc, CF, deps[i], cf);
            replace(cf, deps[i] + "Async", args + cfDesc, CF, deps[i] + "Async", cf);
            replace(cf, deps[i] + "Async", args + "Ljava/util/concurrent/Executor;" + cfDesc, CF, deps[i] + "Async", cf);
            // the same through the CompletionStage interface type: rt.StageHooks checks the receiver's class
            String csDesc = ")" + cs;
            replace(ju + "CompletionStage", deps[i], args + csDesc, STAGE, deps[i], ju + "CompletionStage");
            replace(ju + "CompletionStage", deps[i] + "Async", args + csDesc, STAGE, deps[i] + "Async",
                    ju + "CompletionStage");
            replace(ju + "CompletionStage", deps[i] + "Async", args + "Ljava/util/concurrent/Executor;" + csDesc,
                    STAGE, deps[i] + "Async", ju + "CompletionStage");
        }
        replace(cf, "complete", "(Ljava/lang/Object;)Z", CF, "complete", cf);
        replace(cf, "completeExceptionally", "(Ljava/lang/Throwable;)Z", CF, "completeExceptionally", cf);
        String cfs = "([Ljava/util/concurrent/CompletableFuture;)Ljava/util/concurrent/CompletableFuture;";
        REPLACE.put(cf + ".allOf" + cfs, new Replace(CF, "allOf", cfs, true));
        REPLACE.put(cf + ".anyOf" + cfs, new Replace(CF, "anyOf", cfs, true));

        for (String o : new String[] {ju + "Future", ju + "RunnableFuture", ju + "ScheduledFuture",
            ju + "FutureTask", cf}) {
            replace(o, "get", "()Ljava/lang/Object;", JUC, "get", ju + "Future");
            replace(o, "get", "(JLjava/util/concurrent/TimeUnit;)Ljava/lang/Object;", JUC, "get", ju + "Future");
        }
        String bq = ju + "BlockingQueue";
        String bd = ju + "BlockingDeque";
        String tq = ju + "TransferQueue";
        String obj = "(Ljava/lang/Object;";
        String timed = "JLjava/util/concurrent/TimeUnit;)";
        for (String o : new String[] {bq, ju + "ArrayBlockingQueue", ju + "LinkedBlockingQueue", bd,
            ju + "LinkedBlockingDeque", ju + "PriorityBlockingQueue", ju + "LinkedTransferQueue",
            tq, ju + "SynchronousQueue"}) {
            replace(o, "put", obj + ")V", QUEUE, "put", bq);
            replace(o, "offer", obj + ")Z", QUEUE, "offer", bq);
            replace(o, "add", obj + ")Z", QUEUE, "add", bq);
            replace(o, "offer", obj + timed + "Z", QUEUE, "offer", bq);
            replace(o, "take", "()Ljava/lang/Object;", QUEUE, "take", bq);
            replace(o, "poll", "()Ljava/lang/Object;", QUEUE, "poll", bq);
            replace(o, "poll", "(" + timed + "Ljava/lang/Object;", QUEUE, "poll", bq);
            replace(o, "remove", "()Ljava/lang/Object;", QUEUE, "remove", bq);
            replace(o, "remove", obj + ")Z", QUEUE, "remove", bq);
            replace(o, "drainTo", "(Ljava/util/Collection;)I", QUEUE, "drainTo", bq);
            replace(o, "drainTo", "(Ljava/util/Collection;I)I", QUEUE, "drainTo", bq);
        }
        for (String o : new String[] {bd, ju + "LinkedBlockingDeque"}) {
            for (String m : new String[] {"putFirst", "putLast", "addFirst", "addLast", "push"}) {
                replace(o, m, obj + ")V", QUEUE, m, bd);
            }
            for (String m : new String[] {"offerFirst", "offerLast"}) {
                replace(o, m, obj + ")Z", QUEUE, m, bd);
                replace(o, m, obj + timed + "Z", QUEUE, m, bd);
            }
            for (String m : new String[] {"takeFirst", "takeLast", "pollFirst", "pollLast", "removeFirst",
                "removeLast", "pop"}) {
                replace(o, m, "()Ljava/lang/Object;", QUEUE, m, bd);
            }
            replace(o, "pollFirst", "(" + timed + "Ljava/lang/Object;", QUEUE, "pollFirst", bd);
            replace(o, "pollLast", "(" + timed + "Ljava/lang/Object;", QUEUE, "pollLast", bd);
        }
        for (String o : new String[] {tq, ju + "LinkedTransferQueue"}) {
            replace(o, "transfer", obj + ")V", QUEUE, "transfer", tq);
            replace(o, "tryTransfer", obj + ")Z", QUEUE, "tryTransfer", tq);
            replace(o, "tryTransfer", obj + timed + "Z", QUEUE, "tryTransfer", tq);
        }
        // the queue hand-offs through the wider interface types: rt.CollectionHooks checks the receiver's class
        String coll = "java/util/Collection";
        String queue = "java/util/Queue";
        String deque = "java/util/Deque";
        for (String o : new String[] {coll, queue, deque}) {
            replace(o, "add", obj + ")Z", COLLECTION, "add", coll);
            replace(o, "remove", obj + ")Z", COLLECTION, "remove", coll);
        }
        for (String o : new String[] {queue, deque}) {
            replace(o, "offer", obj + ")Z", COLLECTION, "offer", queue);
            replace(o, "poll", "()Ljava/lang/Object;", COLLECTION, "poll", queue);
            replace(o, "remove", "()Ljava/lang/Object;", COLLECTION, "remove", queue);
        }
        for (String m : new String[] {"addFirst", "addLast", "push"}) {
            replace(deque, m, obj + ")V", COLLECTION, m, deque);
        }
        for (String m : new String[] {"offerFirst", "offerLast"}) {
            replace(deque, m, obj + ")Z", COLLECTION, m, deque);
        }
        for (String m : new String[] {"pollFirst", "pollLast", "removeFirst", "removeLast", "pop"}) {
            replace(deque, m, "()Ljava/lang/Object;", COLLECTION, m, deque);
        }
        String ex = ju + "Exchanger";
        replace(ex, "exchange", obj + ")Ljava/lang/Object;", QUEUE, "exchange", ex);
        replace(ex, "exchange", obj + timed + "Ljava/lang/Object;", QUEUE, "exchange", ex);
        REPLACE.put("org/dsmscope/api/Smait.marker(II)V", new Replace(CALLS, "marker", "(II)V", true));
        String ls = "java/util/concurrent/locks/LockSupport.";
        for (String d : new String[] {"park()V", "park(Ljava/lang/Object;)V", "parkNanos(J)V",
            "parkNanos(Ljava/lang/Object;J)V", "parkUntil(J)V", "parkUntil(Ljava/lang/Object;J)V",
            "unpark(Ljava/lang/Thread;)V"}) {
            int k = d.indexOf('(');
            REPLACE.put(ls + d, new Replace(PARK, d.substring(0, k), d.substring(k), true));
        }

        for (String a : new String[] {"AtomicInteger", "AtomicLong", "AtomicBoolean", "AtomicReference",
            "AtomicIntegerArray", "AtomicLongArray", "AtomicReferenceArray"}) {
            ATOMIC_OWNERS.put("java/util/concurrent/atomic/" + a, Boolean.TRUE);
        }

        for (String o : new String[] {"java/io/FileInputStream", "java/io/InputStream", "java/io/RandomAccessFile"}) {
            WRAP.put(o + ".read()I", new Wrap(1, -1, -1, -3));
            WRAP.put(o + ".read([B)I", new Wrap(1, 0, -1, -1));
            WRAP.put(o + ".read([BII)I", new Wrap(1, 0, 1, -1));
        }
        for (String o : new String[] {"java/io/FileInputStream", "java/io/InputStream"}) {
            WRAP.put(o + ".readAllBytes()[B", new Wrap(1, 9, -1, -2));
            WRAP.put(o + ".readNBytes([BII)I", new Wrap(1, 0, 1, -1));
        }
        WRAP.put("java/io/RandomAccessFile.readFully([B)V", new Wrap(1, 0, -1, -2));
        WRAP.put("java/io/RandomAccessFile.readFully([BII)V", new Wrap(1, 0, 1, 2));
        for (String o : new String[] {"java/io/FileOutputStream", "java/io/OutputStream", "java/io/RandomAccessFile"}) {
            WRAP.put(o + ".write(I)V", new Wrap(2, -1, -1, -4));
            WRAP.put(o + ".write([B)V", new Wrap(2, 0, -1, -2));
            WRAP.put(o + ".write([BII)V", new Wrap(2, 0, 1, 2));
        }
        String fc = "java/nio/channels/FileChannel";
        WRAP.put(fc + ".read(Ljava/nio/ByteBuffer;)I", new Wrap(1, 0, -1, -1));
        WRAP.put(fc + ".read(Ljava/nio/ByteBuffer;J)I", new Wrap(1, 0, -1, -1));
        WRAP.put(fc + ".write(Ljava/nio/ByteBuffer;)I", new Wrap(2, 0, -1, -1));
        WRAP.put(fc + ".write(Ljava/nio/ByteBuffer;J)I", new Wrap(2, 0, -1, -1));
        WRAP.put("java/nio/file/Files.readAllBytes(Ljava/nio/file/Path;)[B", new Wrap(1, 9, -1, -2));
        WRAP.put("java/nio/file/Files.write(Ljava/nio/file/Path;[B[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path;",
                new Wrap(2, 1, -1, -2));
    }

    private CallSites() {
    }

    private static void replace(String owner, String name, String desc, String hookOwner, String hookName,
            String recvType) {
        String hookDesc = "(L" + recvType + ";" + desc.substring(1);
        REPLACE.put(owner + "." + name + desc, new Replace(hookOwner, hookName, hookDesc));
    }

    /** The replacement of a call, or null. */
    static Replace replacement(String owner, String name, String desc) {
        if (desc.equals("()V") || desc.equals("(J)V") || desc.equals("(JI)V")) {
            switch (name) {
                case "wait":
                    return new Replace(SYNC, "objWait", "(Ljava/lang/Object;" + desc.substring(1));
                case "notify":
                    return desc.equals("()V") ? new Replace(SYNC, "objNotify", "(Ljava/lang/Object;)V") : null;
                case "notifyAll":
                    return desc.equals("()V") ? new Replace(SYNC, "objNotifyAll", "(Ljava/lang/Object;)V") : null;
                default:
                    break;
            }
        }
        return REPLACE.get(owner + "." + name + desc);
    }

    /**
     * Points a method reference at its hook: a {@code LambdaMetafactory} call site ({@code queue::offer},
     * {@code CompletableFuture::supplyAsync}) whose implementation handle names a replaced call gets the hook's
     * static handle instead, so the class the JDK spins for it (a hidden class, never rewritten) calls the hook.
     * Serializable lambdas keep their handle (their {@code $deserializeLambda$} compares it). True if it changed.
     */
    static boolean methodReference(InvokeDynamicInsnNode d) {
        Object[] args = d.bsmArgs;
        if (!d.bsm.getOwner().equals("java/lang/invoke/LambdaMetafactory") || args.length < 3
                || !(args[1] instanceof Handle)) {
            return false;
        }
        if (d.bsm.getName().equals("altMetafactory")) {
            if (args.length < 4 || !(args[3] instanceof Integer) || ((Integer) args[3] & SERIALIZABLE) != 0) {
                return false;
            }
        } else if (!d.bsm.getName().equals("metafactory")) {
            return false;
        }
        Handle impl = (Handle) args[1];
        int tag = impl.getTag();
        boolean ofStatic = tag == Opcodes.H_INVOKESTATIC;
        if (!ofStatic && tag != Opcodes.H_INVOKEVIRTUAL && tag != Opcodes.H_INVOKEINTERFACE) {
            return false;
        }
        Replace r = replacement(impl.getOwner(), impl.getName(), impl.getDesc());
        if (r == null || r.ofStatic != ofStatic) {
            return false;
        }
        // LambdaMetafactory wants the captured values' types to be exactly the static method's first parameter
        // types (a captured receiver Queue for a hook taking a Collection): the call site's type names them
        Type[] captured = Type.getArgumentTypes(d.desc);
        Type[] hook = Type.getArgumentTypes(r.desc);
        if (captured.length > hook.length) {
            return false;
        }
        System.arraycopy(hook, 0, captured, 0, captured.length);
        d.desc = Type.getMethodDescriptor(Type.getReturnType(d.desc), captured);
        args[1] = new Handle(Opcodes.H_INVOKESTATIC, r.owner, r.name, r.desc, false);
        return true;
    }

    /** {@code LambdaMetafactory.FLAG_SERIALIZABLE}. */
    private static final int SERIALIZABLE = 1;

    /** The wrapping rule of a call, or null. */
    static Wrap wrap(String owner, String name, String desc) {
        if (ATOMIC_OWNERS.containsKey(owner)) {
            return isAtomicRmw(name) ? new Wrap(0, -1, -1, 0) : null;
        }
        if (owner.equals("java/lang/invoke/VarHandle")) {
            return name.startsWith("compareAnd") || name.startsWith("weakCompareAndSet")
                    || name.startsWith("getAnd") ? new Wrap(0, -1, -1, 0) : null;
        }
        return WRAP.get(owner + "." + name + desc);
    }

    private static boolean isAtomicRmw(String name) {
        switch (name) {
            case "compareAndSet": case "weakCompareAndSet": case "weakCompareAndSetPlain":
            case "weakCompareAndSetVolatile": case "weakCompareAndSetAcquire": case "weakCompareAndSetRelease":
            case "compareAndExchange": case "compareAndExchangeAcquire": case "compareAndExchangeRelease":
            case "getAndSet": case "getAndIncrement": case "getAndDecrement": case "getAndAdd":
            case "incrementAndGet": case "decrementAndGet": case "addAndGet": case "getAndUpdate":
            case "updateAndGet": case "getAndAccumulate": case "accumulateAndGet":
                return true;
            default:
                return false;
        }
    }
}
