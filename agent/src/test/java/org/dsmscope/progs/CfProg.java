package org.dsmscope.progs;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Test program: {@code CompletableFuture} dependants and completions (issue 28): a supplyAsync source on a pool,
 * thenApply, thenCombine with a second source, thenCompose, whenComplete, handle, thenAccept / thenRun on the
 * common pool (Async), allOf and anyOf, and a future completed with {@code complete(v)} by another thread that
 * main joins. Each function reads what the previous one wrote into a shared array. Prints {@code check VALUES}.
 */
public final class CfProg {
    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        long[] cells = new long[8];
        CompletableFuture<Long> a = CompletableFuture.supplyAsync(() -> {
            cells[0] = 3;
            return 3L;
        }, pool);
        CompletableFuture<Long> b = CompletableFuture.supplyAsync(() -> {
            cells[1] = 4;
            return 4L;
        }, pool);
        CompletableFuture<Long> applied = a.thenApply(x -> {
            cells[2] = cells[0] * 10;
            return x * 10;
        });
        CompletableFuture<Long> combined = applied.thenCombine(b, (x, y) -> x + y + cells[1]);
        CompletableFuture<Long> composed = combined.thenCompose(x -> CompletableFuture.supplyAsync(() -> x + 1, pool));
        CompletableFuture<Long> handled = composed.whenComplete((x, e) -> cells[3] = x).handle((x, e) -> x * 2);
        CompletableFuture<Void> accepted = handled.thenAcceptAsync(x -> cells[4] = x + cells[2]);
        CompletableFuture<Void> ran = accepted.thenRunAsync(() -> cells[5] = cells[4] + 1, pool);
        CompletableFuture.allOf(ran, b).join();
        Object any = CompletableFuture.anyOf(ran, handled).get();
        CompletableFuture<Long> manual = new CompletableFuture<>();
        Thread completer = new Thread(() -> {
            cells[6] = 77;
            manual.complete(77L);
        });
        completer.start();
        long m = manual.join() + cells[6];
        completer.join();
        pool.shutdown();
        System.out.println("check " + cells[2] + " " + cells[3] + " " + cells[4] + " " + cells[5] + " " + any + " " + m);
    }
}
