package org.dsmscope.examples;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * A producer and its consumers (issue 26, seed 003's single-producer patterns): in each round thread 0 fills a
 * shared buffer of doubles, a barrier hands it over, every other thread reads all of it, and a second barrier
 * returns it to the producer. Only the producer writes the buffer, so a page-based DSM sees single-producer-
 * single-consumer sharing with 2 threads and single-producer-multiple-consumer with more. Consumers keep their sums
 * in local variables and store them once, after the last round.
 */
public final class ProducerConsumer {
    /** Default number of rounds. */
    public static final int DEFAULT_SIZE = 64;
    /** Doubles in the buffer: four 4 KiB pages. */
    static final int BUFFER = 2048;

    private ProducerConsumer() {
    }

    /** Runs {@code ProducerConsumer [THREADS [ROUNDS]]}. */
    public static void main(String[] args) {
        Cli.main("ProducerConsumer", args, DEFAULT_SIZE, ProducerConsumer::run);
    }

    /** Runs {@code rounds} rounds of produce / consume on {@code threads} threads and checks every consumer's sum. */
    public static Result run(int threads, int rounds) {
        Cli.checkThreads(threads);
        UsageException.require(rounds >= 1 && rounds <= 100_000, "size (rounds) must be 1..100000, was " + rounds);
        Phases.begin(Phases.INIT);
        double[] buffer = new double[BUFFER];
        long[] sums = new long[Math.max(threads, 2)];
        CyclicBarrier barrier = new CyclicBarrier(threads);
        Phases.begin(Phases.COMPUTE);
        Team.run("prodcons", threads, id -> {
            long sum = 0;
            for (int r = 0; r < rounds; r++) {
                if (id == 0) {
                    produce(buffer, r);
                }
                await(barrier);
                if (id != 0 || threads == 1) {
                    sum += consume(buffer);
                }
                await(barrier);
            }
            if (id != 0 || threads == 1) {
                sums[Math.max(id, 1)] = sum;
            }
        });
        Phases.begin(Phases.VERIFY);
        long expected = 0;
        for (int r = 0; r < rounds; r++) {
            produce(buffer, r);
            expected += consume(buffer);
        }
        String problem = null;
        for (int id = 1; id < Math.max(threads, 2); id++) {
            if (sums[id] != expected) {
                problem = "consumer " + id + " summed " + sums[id] + ", expected " + expected;
            }
        }
        return Result.checked(Long.toString(expected), "rounds=" + rounds, problem);
    }

    private static void produce(double[] buffer, int round) {
        for (int i = 0; i < buffer.length; i++) {
            buffer[i] = (i * 31 + round * 17) % 101;
        }
    }

    private static long consume(double[] buffer) {
        long s = 0;
        for (int i = 0; i < buffer.length; i++) {
            s += (long) buffer[i];
        }
        return s;
    }

    private static void await(CyclicBarrier b) throws InterruptedException, BrokenBarrierException {
        b.await();
    }
}
