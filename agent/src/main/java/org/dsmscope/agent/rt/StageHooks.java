package org.dsmscope.agent.rt;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Level 1 entry points for {@code CompletableFuture}'s dependants called through the {@code CompletionStage}
 * interface type (issue 28's leftover, SPEC §3's acquire / release scheme): each hook checks the receiver's class
 * once ({@code instanceof CompletableFuture}) and hands a {@code CompletableFuture} to the {@link CfHooks} entry
 * point its concrete-typed call reaches, so it records exactly what that call records; another implementation of
 * {@code CompletionStage} gets the program's own call and nothing is recorded.
 */
@SuppressWarnings({"unchecked", "rawtypes"})
public final class StageHooks {
    private StageHooks() {
    }

    /** {@code s.thenApply(...)} through {@code CompletionStage}. */
    public static CompletionStage thenApply(CompletionStage s, Function fn) {
        return s instanceof CompletableFuture ? CfHooks.thenApply((CompletableFuture) s, fn) : s.thenApply(fn);
    }

    /** {@code s.thenApplyAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage thenApplyAsync(CompletionStage s, Function fn) {
        return s instanceof CompletableFuture ? CfHooks.thenApplyAsync((CompletableFuture) s, fn)
                : s.thenApplyAsync(fn);
    }

    /** {@code s.thenApplyAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage thenApplyAsync(CompletionStage s, Function fn, Executor e) {
        return s instanceof CompletableFuture ? CfHooks.thenApplyAsync((CompletableFuture) s, fn, e)
                : s.thenApplyAsync(fn, e);
    }

    /** {@code s.thenAccept(...)} through {@code CompletionStage}. */
    public static CompletionStage thenAccept(CompletionStage s, Consumer fn) {
        return s instanceof CompletableFuture ? CfHooks.thenAccept((CompletableFuture) s, fn) : s.thenAccept(fn);
    }

    /** {@code s.thenAcceptAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage thenAcceptAsync(CompletionStage s, Consumer fn) {
        return s instanceof CompletableFuture ? CfHooks.thenAcceptAsync((CompletableFuture) s, fn)
                : s.thenAcceptAsync(fn);
    }

    /** {@code s.thenAcceptAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage thenAcceptAsync(CompletionStage s, Consumer fn, Executor e) {
        return s instanceof CompletableFuture ? CfHooks.thenAcceptAsync((CompletableFuture) s, fn, e)
                : s.thenAcceptAsync(fn, e);
    }

    /** {@code s.thenRun(...)} through {@code CompletionStage}. */
    public static CompletionStage thenRun(CompletionStage s, Runnable fn) {
        return s instanceof CompletableFuture ? CfHooks.thenRun((CompletableFuture) s, fn) : s.thenRun(fn);
    }

    /** {@code s.thenRunAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage thenRunAsync(CompletionStage s, Runnable fn) {
        return s instanceof CompletableFuture ? CfHooks.thenRunAsync((CompletableFuture) s, fn) : s.thenRunAsync(fn);
    }

    /** {@code s.thenRunAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage thenRunAsync(CompletionStage s, Runnable fn, Executor e) {
        return s instanceof CompletableFuture ? CfHooks.thenRunAsync((CompletableFuture) s, fn, e)
                : s.thenRunAsync(fn, e);
    }

    /** {@code s.thenCombine(...)} through {@code CompletionStage}. */
    public static CompletionStage thenCombine(CompletionStage s, CompletionStage other, BiFunction fn) {
        return s instanceof CompletableFuture ? CfHooks.thenCombine((CompletableFuture) s, other, fn)
                : s.thenCombine(other, fn);
    }

    /** {@code s.thenCombineAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage thenCombineAsync(CompletionStage s, CompletionStage other, BiFunction fn) {
        return s instanceof CompletableFuture ? CfHooks.thenCombineAsync((CompletableFuture) s, other, fn)
                : s.thenCombineAsync(other, fn);
    }

    /** {@code s.thenCombineAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage thenCombineAsync(CompletionStage s, CompletionStage other, BiFunction fn, Executor e) {
        return s instanceof CompletableFuture ? CfHooks.thenCombineAsync((CompletableFuture) s, other, fn, e)
                : s.thenCombineAsync(other, fn, e);
    }

    /** {@code s.thenAcceptBoth(...)} through {@code CompletionStage}. */
    public static CompletionStage thenAcceptBoth(CompletionStage s, CompletionStage other, BiConsumer fn) {
        return s instanceof CompletableFuture ? CfHooks.thenAcceptBoth((CompletableFuture) s, other, fn)
                : s.thenAcceptBoth(other, fn);
    }

    /** {@code s.thenAcceptBothAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage thenAcceptBothAsync(CompletionStage s, CompletionStage other, BiConsumer fn) {
        return s instanceof CompletableFuture ? CfHooks.thenAcceptBothAsync((CompletableFuture) s, other, fn)
                : s.thenAcceptBothAsync(other, fn);
    }

    /** {@code s.thenAcceptBothAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage thenAcceptBothAsync(CompletionStage s, CompletionStage other, BiConsumer fn, Executor e) {
        return s instanceof CompletableFuture ? CfHooks.thenAcceptBothAsync((CompletableFuture) s, other, fn, e)
                : s.thenAcceptBothAsync(other, fn, e);
    }

    /** {@code s.runAfterBoth(...)} through {@code CompletionStage}. */
    public static CompletionStage runAfterBoth(CompletionStage s, CompletionStage other, Runnable fn) {
        return s instanceof CompletableFuture ? CfHooks.runAfterBoth((CompletableFuture) s, other, fn)
                : s.runAfterBoth(other, fn);
    }

    /** {@code s.runAfterBothAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage runAfterBothAsync(CompletionStage s, CompletionStage other, Runnable fn) {
        return s instanceof CompletableFuture ? CfHooks.runAfterBothAsync((CompletableFuture) s, other, fn)
                : s.runAfterBothAsync(other, fn);
    }

    /** {@code s.runAfterBothAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage runAfterBothAsync(CompletionStage s, CompletionStage other, Runnable fn, Executor e) {
        return s instanceof CompletableFuture ? CfHooks.runAfterBothAsync((CompletableFuture) s, other, fn, e)
                : s.runAfterBothAsync(other, fn, e);
    }

    /** {@code s.applyToEither(...)} through {@code CompletionStage}. */
    public static CompletionStage applyToEither(CompletionStage s, CompletionStage other, Function fn) {
        return s instanceof CompletableFuture ? CfHooks.applyToEither((CompletableFuture) s, other, fn)
                : s.applyToEither(other, fn);
    }

    /** {@code s.applyToEitherAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage applyToEitherAsync(CompletionStage s, CompletionStage other, Function fn) {
        return s instanceof CompletableFuture ? CfHooks.applyToEitherAsync((CompletableFuture) s, other, fn)
                : s.applyToEitherAsync(other, fn);
    }

    /** {@code s.applyToEitherAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage applyToEitherAsync(CompletionStage s, CompletionStage other, Function fn, Executor e) {
        return s instanceof CompletableFuture ? CfHooks.applyToEitherAsync((CompletableFuture) s, other, fn, e)
                : s.applyToEitherAsync(other, fn, e);
    }

    /** {@code s.acceptEither(...)} through {@code CompletionStage}. */
    public static CompletionStage acceptEither(CompletionStage s, CompletionStage other, Consumer fn) {
        return s instanceof CompletableFuture ? CfHooks.acceptEither((CompletableFuture) s, other, fn)
                : s.acceptEither(other, fn);
    }

    /** {@code s.acceptEitherAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage acceptEitherAsync(CompletionStage s, CompletionStage other, Consumer fn) {
        return s instanceof CompletableFuture ? CfHooks.acceptEitherAsync((CompletableFuture) s, other, fn)
                : s.acceptEitherAsync(other, fn);
    }

    /** {@code s.acceptEitherAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage acceptEitherAsync(CompletionStage s, CompletionStage other, Consumer fn, Executor e) {
        return s instanceof CompletableFuture ? CfHooks.acceptEitherAsync((CompletableFuture) s, other, fn, e)
                : s.acceptEitherAsync(other, fn, e);
    }

    /** {@code s.runAfterEither(...)} through {@code CompletionStage}. */
    public static CompletionStage runAfterEither(CompletionStage s, CompletionStage other, Runnable fn) {
        return s instanceof CompletableFuture ? CfHooks.runAfterEither((CompletableFuture) s, other, fn)
                : s.runAfterEither(other, fn);
    }

    /** {@code s.runAfterEitherAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage runAfterEitherAsync(CompletionStage s, CompletionStage other, Runnable fn) {
        return s instanceof CompletableFuture ? CfHooks.runAfterEitherAsync((CompletableFuture) s, other, fn)
                : s.runAfterEitherAsync(other, fn);
    }

    /** {@code s.runAfterEitherAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage runAfterEitherAsync(CompletionStage s, CompletionStage other, Runnable fn, Executor e) {
        return s instanceof CompletableFuture ? CfHooks.runAfterEitherAsync((CompletableFuture) s, other, fn, e)
                : s.runAfterEitherAsync(other, fn, e);
    }

    /** {@code s.handle(...)} through {@code CompletionStage}. */
    public static CompletionStage handle(CompletionStage s, BiFunction fn) {
        return s instanceof CompletableFuture ? CfHooks.handle((CompletableFuture) s, fn) : s.handle(fn);
    }

    /** {@code s.handleAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage handleAsync(CompletionStage s, BiFunction fn) {
        return s instanceof CompletableFuture ? CfHooks.handleAsync((CompletableFuture) s, fn) : s.handleAsync(fn);
    }

    /** {@code s.handleAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage handleAsync(CompletionStage s, BiFunction fn, Executor e) {
        return s instanceof CompletableFuture ? CfHooks.handleAsync((CompletableFuture) s, fn, e)
                : s.handleAsync(fn, e);
    }

    /** {@code s.whenComplete(...)} through {@code CompletionStage}. */
    public static CompletionStage whenComplete(CompletionStage s, BiConsumer fn) {
        return s instanceof CompletableFuture ? CfHooks.whenComplete((CompletableFuture) s, fn) : s.whenComplete(fn);
    }

    /** {@code s.whenCompleteAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage whenCompleteAsync(CompletionStage s, BiConsumer fn) {
        return s instanceof CompletableFuture ? CfHooks.whenCompleteAsync((CompletableFuture) s, fn)
                : s.whenCompleteAsync(fn);
    }

    /** {@code s.whenCompleteAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage whenCompleteAsync(CompletionStage s, BiConsumer fn, Executor e) {
        return s instanceof CompletableFuture ? CfHooks.whenCompleteAsync((CompletableFuture) s, fn, e)
                : s.whenCompleteAsync(fn, e);
    }

    /** {@code s.thenCompose(...)} through {@code CompletionStage}. */
    public static CompletionStage thenCompose(CompletionStage s, Function fn) {
        return s instanceof CompletableFuture ? CfHooks.thenCompose((CompletableFuture) s, fn) : s.thenCompose(fn);
    }

    /** {@code s.thenComposeAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage thenComposeAsync(CompletionStage s, Function fn) {
        return s instanceof CompletableFuture ? CfHooks.thenComposeAsync((CompletableFuture) s, fn)
                : s.thenComposeAsync(fn);
    }

    /** {@code s.thenComposeAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage thenComposeAsync(CompletionStage s, Function fn, Executor e) {
        return s instanceof CompletableFuture ? CfHooks.thenComposeAsync((CompletableFuture) s, fn, e)
                : s.thenComposeAsync(fn, e);
    }

    /** {@code s.exceptionally(...)} through {@code CompletionStage}. */
    public static CompletionStage exceptionally(CompletionStage s, Function fn) {
        return s instanceof CompletableFuture ? CfHooks.exceptionally((CompletableFuture) s, fn) : s.exceptionally(fn);
    }

    /** {@code s.exceptionallyAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage exceptionallyAsync(CompletionStage s, Function fn) {
        return s instanceof CompletableFuture ? CfHooks.exceptionallyAsync((CompletableFuture) s, fn)
                : s.exceptionallyAsync(fn);
    }

    /** {@code s.exceptionallyAsync(...)} through {@code CompletionStage}. */
    public static CompletionStage exceptionallyAsync(CompletionStage s, Function fn, Executor e) {
        return s instanceof CompletableFuture ? CfHooks.exceptionallyAsync((CompletableFuture) s, fn, e)
                : s.exceptionallyAsync(fn, e);
    }
}
