package org.dsmscope.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class PipelineTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void noItems_onlyEndMarkersFlow_andTheCheckIsZero() {
        Result r = Pipeline.run(4, 0);
        assertTrue(r.ok(), r.detail());
        assertEquals("0", r.check());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void oneItem_checkIsTheMixedFirstRandomValue() {
        long v = Pipeline.mix(new Prng(0x5049504CL).nextLong());
        Result r = Pipeline.run(3, 1);
        assertTrue(r.ok(), r.detail());
        assertEquals(Long.toHexString(v), r.check());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void monitorBuffer_isFirstInFirstOut() throws InterruptedException {
        Pipeline.MonitorBuffer b = new Pipeline.MonitorBuffer();
        for (int i = 0; i < Pipeline.CAPACITY; i++) {
            b.put(new Pipeline.Item(i, i));
        }
        for (int i = 0; i < Pipeline.CAPACITY; i++) {
            assertEquals(i, b.take().seq);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void conditionBuffer_blocksAFullProducerUntilAConsumerTakes() throws Exception {
        Pipeline.ConditionBuffer b = new Pipeline.ConditionBuffer();
        int n = 5 * Pipeline.CAPACITY;
        Thread producer = new Thread(() -> {
            try {
                for (int i = 0; i < n; i++) {
                    b.put(new Pipeline.Item(i, 0));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        producer.start();
        for (int i = 0; i < n; i++) {
            assertEquals(i, b.take().seq);
        }
        producer.join();
    }

    @Property(tries = 15)
    void everyItemArrivesOnce_forAnyTransformerCount(@ForAll @IntRange(min = 0, max = 2000) int n,
                                                     @ForAll @IntRange(min = 1, max = 6) int threads) {
        Result r = Pipeline.run(threads, n);
        assertTrue(r.ok(), r.detail());
        assertEquals(Pipeline.run(1, n).check(), r.check());
    }
}
