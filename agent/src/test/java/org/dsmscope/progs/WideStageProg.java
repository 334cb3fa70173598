package org.dsmscope.progs;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Supplier;

/**
 * Test program: {@code CompletableFuture}s held as {@code CompletionStage} and {@code Future} (issue 28's
 * leftover): a future that another thread completes after {@code WORK} array stores, a dependant through
 * {@code CompletionStage.thenApplyAsync} on a pool whose worker main started, a {@code thenCombine} of it with a source started through the
 * method reference {@code CompletableFuture::supplyAsync}, a {@code whenComplete}; main's {@code Future.get} of the
 * result. Each function reads what the one before wrote into a shared array. Args: {@code WORK}; prints
 * {@code check VALUES}.
 */
public final class WideStageProg {
    public static void main(String[] args) throws Exception {
        int work = Integer.parseInt(args[0]);
        // the worker starts now, from main: the dependant's wait for the completer is then a wait in the replay
        ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(1);
        pool.prestartAllCoreThreads();
        long[] data = new long[work + 1];
        long[] cells = new long[4];
        CompletableFuture<Long> source = new CompletableFuture<>();
        CompletionStage<Long> stage = source;
        CompletionStage<Long> applied = stage.thenApplyAsync(x -> {
            cells[0] = data[work] + x;
            return cells[0] * 2;
        }, pool);
        java.util.function.Function<Supplier<Long>, CompletableFuture<Long>> async = CompletableFuture::supplyAsync;
        CompletionStage<Long> other = async.apply(() -> {
            cells[1] = 5;
            return 5L;
        });
        CompletionStage<Long> combined = applied.thenCombine(other, (x, y) -> x + y + cells[1])
                .whenComplete((x, e) -> cells[2] = x);
        Thread completer = new Thread(() -> {
            for (int i = 0; i < data.length; i++) {
                data[i] = i;
            }
            source.complete(1L);
        });
        completer.start();
        Future<Long> result = combined.toCompletableFuture();
        long v = result.get();
        completer.join();
        pool.shutdown();
        System.out.println("check " + cells[0] + " " + v + " " + cells[2]);
    }
}
