package org.dsmscope.agent.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The agent's side table: one value per object however many threads ask at once, and the lock-free
 * {@link WeakIdentityTable#peek} finds only an object's own entry, or nothing (then the locked path decides),
 * while other threads insert and stripes are rebuilt.
 */
class WeakIdentityTableTest {
    @Test
    void peek_findsOnlyEntriesWithAValue_andEachObjectKeepsItsFirstValue() {
        WeakIdentityTable t = new WeakIdentityTable();
        Object a = new Object();
        int h = System.identityHashCode(a);
        assertNull(t.peek(a, h), "absent");
        WeakIdentityTable.Entry e = t.entry(a, h, 7);
        assertSame(e, t.peek(a, h));
        assertEquals(7, t.entry(a, h, 9).value, "the first value stays");
        assertEquals(7, t.putIfAbsent(a, h, 11));
        t.attachment(new Object(), Object::new);
        Object b = new Object();
        t.attachment(b, Object::new);
        assertNull(t.peek(b, System.identityHashCode(b)), "an entry without a value is not peeked");
    }

    @Test
    void fourThreadsAssigningAndPeekingTheSameObjects_whileStripesGrow_agreeOnOneValuePerObject() throws Exception {
        WeakIdentityTable t = new WeakIdentityTable();
        Object[] objs = new Object[20_011]; // prime: every stride below visits every object
        for (int i = 0; i < objs.length; i++) {
            objs[i] = new int[i % 7];
        }
        AtomicLong next = new AtomicLong(1);
        long[][] seen = new long[4][objs.length];
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread[] ts = new Thread[4];
        for (int k = 0; k < 4; k++) {
            int kk = k;
            ts[k] = new Thread(() -> {
                try {
                    for (int round = 0; round < 3; round++) {
                        for (int j = 0; j < objs.length; j++) {
                            int i = (j * (2 * kk + 1) + round * 977) % objs.length;
                            Object o = objs[i];
                            int h = System.identityHashCode(o);
                            WeakIdentityTable.Entry e = t.peek(o, h);
                            long v = e != null ? e.value : t.putIfAbsent(o, h, next.getAndIncrement());
                            if (e != null && e.get() != o) {
                                throw new AssertionError("peek returned another object's entry");
                            }
                            if (seen[kk][i] != 0 && seen[kk][i] != v) {
                                throw new AssertionError("object " + i + " changed value " + seen[kk][i] + " -> " + v);
                            }
                            seen[kk][i] = v;
                        }
                    }
                } catch (Throwable x) {
                    failed.compareAndSet(null, x);
                }
            });
            ts[k].start();
        }
        for (Thread x : ts) {
            x.join(60_000);
        }
        assertNull(failed.get());
        for (int i = 0; i < objs.length; i++) {
            for (int k = 1; k < 4; k++) {
                assertEquals(seen[0][i], seen[k][i], "threads agree on object " + i);
            }
        }
    }
}
