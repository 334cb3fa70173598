package org.dsmscope.tracedprog;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A random lock / wait / notify program (the property test of issue 22): {@code RandomSync SEED} draws 2–4 worker
 * threads, each with a script of 8–30 operations: nested monitor sections (monitors taken in index order, so no
 * deadlock), timed waits and notifies on monitors, a {@code ReentrantLock} with timed condition awaits and
 * signals, read and write sections of a {@code ReentrantReadWriteLock}, and tokens put into and taken from a
 * monitor with untimed waits (each script puts at least as many tokens as it has taken before each take, so a take
 * always ends). Every exclusive acquisition (and re-acquisition after a wait) appends the thread's index to that
 * lock's log while it holds the lock; at the end main prints one line per lock: {@code lock NAME T T T ...}, the
 * order in which the run really took it. Threads: main 0, the workers 1..W in start order.
 */
public final class RandomSync {
    private static final int MONITORS = 3;

    /** A lock's acquisition log; appended to while holding the lock it logs. */
    static final class Log {
        final String name;
        int[] threads = new int[64];
        int n;

        Log(String name) {
            this.name = name;
        }

        void add(int t) {
            if (n == threads.length) {
                threads = java.util.Arrays.copyOf(threads, 2 * n);
            }
            threads[n++] = t;
        }
    }

    private static final Object[] MON = new Object[MONITORS];
    private static final Log[] MON_LOG = new Log[MONITORS];
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final Condition COND = LOCK.newCondition();
    private static final Log LOCK_LOG = new Log("lock");
    private static final ReentrantReadWriteLock RW = new ReentrantReadWriteLock();
    private static final Log RW_LOG = new Log("rw");
    private static final Object TOKENS = new Object();
    private static final Log TOKENS_LOG = new Log("tokens");
    private static int tokens;
    private static long work;

    private RandomSync() {
    }

    public static void main(String[] args) throws InterruptedException {
        Random rnd = new Random(Long.parseLong(args[0]));
        for (int i = 0; i < MONITORS; i++) {
            MON[i] = new Object();
            MON_LOG[i] = new Log("monitor" + i);
        }
        int workers = 2 + rnd.nextInt(3);
        int[][] scripts = new int[workers][];
        // tokens: each script puts at least as many as it has taken before each take; the puts beyond are taken by
        // nobody, so the program always ends
        for (int w = 0; w < workers; w++) {
            int[] s = new int[8 + rnd.nextInt(23)];
            int balance = 0;
            for (int i = 0; i < s.length; i++) {
                int op = rnd.nextInt(8);
                if (op == 7 && balance == 0) {
                    op = 6;
                }
                balance += op == 6 ? 1 : op == 7 ? -1 : 0;
                s[i] = op | rnd.nextInt(1 << 8) << 4;
            }
            scripts[w] = s;
        }
        Thread[] ts = new Thread[workers];
        for (int w = 0; w < workers; w++) {
            int id = w + 1;
            int[] script = scripts[w];
            ts[w] = new Thread(() -> run(id, script));
        }
        for (Thread t : ts) {
            t.start();
        }
        for (Thread t : ts) {
            t.join();
        }
        StringBuilder out = new StringBuilder();
        for (Log l : MON_LOG) {
            print(out, l);
        }
        print(out, LOCK_LOG);
        print(out, RW_LOG);
        print(out, TOKENS_LOG);
        System.out.print(out);
    }

    private static void print(StringBuilder out, Log l) {
        out.append("lock ").append(l.name);
        for (int i = 0; i < l.n; i++) {
            out.append(' ').append(l.threads[i]);
        }
        out.append('\n');
    }

    private static void run(int id, int[] script) {
        try {
            for (int op : script) {
                step(id, op & 0xF, op >>> 4);
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void step(int id, int op, int arg) throws InterruptedException {
        switch (op) {
            case 0:
            case 1:
                nested(id, arg & 7, 0, arg >>> 3);
                return;
            case 2: {
                int m = arg % MONITORS;
                synchronized (MON[m]) {
                    MON_LOG[m].add(id);
                    MON[m].wait(1 + (arg >>> 4) % 2);
                    MON_LOG[m].add(id);
                }
                return;
            }
            case 3: {
                int m = arg % MONITORS;
                synchronized (MON[m]) {
                    MON_LOG[m].add(id);
                    if ((arg & 8) != 0) {
                        MON[m].notifyAll();
                    } else {
                        MON[m].notify();
                    }
                }
                return;
            }
            case 4:
                LOCK.lock();
                try {
                    LOCK_LOG.add(id);
                    if ((arg & 1) != 0) {
                        COND.await(1, TimeUnit.MILLISECONDS);
                        LOCK_LOG.add(id);
                    } else {
                        COND.signal();
                    }
                } finally {
                    LOCK.unlock();
                }
                return;
            case 5:
                if ((arg & 1) != 0) {
                    RW.readLock().lock();
                    try {
                        spin(arg);
                    } finally {
                        RW.readLock().unlock();
                    }
                } else {
                    RW.writeLock().lock();
                    try {
                        RW_LOG.add(id);
                        spin(arg);
                    } finally {
                        RW.writeLock().unlock();
                    }
                }
                return;
            case 6:
                synchronized (TOKENS) {
                    TOKENS_LOG.add(id);
                    tokens++;
                    TOKENS.notify();
                }
                return;
            default:
                synchronized (TOKENS) {
                    TOKENS_LOG.add(id);
                    while (tokens == 0) {
                        TOKENS.wait();
                        TOKENS_LOG.add(id);
                    }
                    tokens--;
                }
        }
    }

    /** Takes the monitors of {@code mask} from index {@code from} up, in index order, nested; works inside. */
    private static void nested(int id, int mask, int from, int arg) {
        for (int m = from; m < MONITORS; m++) {
            if ((mask & 1 << m) != 0) {
                synchronized (MON[m]) {
                    MON_LOG[m].add(id);
                    synchronized (MON[m]) {
                        nested(id, mask, m + 1, arg); // re-entered: not an acquisition
                    }
                }
                return;
            }
        }
        spin(arg);
    }

    private static void spin(int arg) {
        long s = work;
        for (int i = 0; i < 50 * (arg & 7); i++) {
            s = s * 31 + i;
        }
        work = s;
    }
}
