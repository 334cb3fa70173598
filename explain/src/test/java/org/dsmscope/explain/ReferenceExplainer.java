package org.dsmscope.explain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The reference for {@link ExplainerPropertyTest}: the {@link Explainer}'s causes, edge weights, costs and patterns
 * computed the straightforward way (seed 003; module README "Causes, graph and explanations", "The six
 * patterns"), with collections: pending notices in lists per (unit, processor), sorted per fault; intervals as the
 * connected components of consumers sharing a notice, found by a breadth-first search.
 */
final class ReferenceExplainer {
    final byte[] cause;
    final int[][] notices;
    final byte[][] kinds;
    final double[][] weights;
    final double[] cost;
    final int[] prevSame;
    final int[] nextOnUnit;
    final byte[] pattern;

    ReferenceExplainer(FaultTrace t, CostModel cm) {
        int faults = t.faults();
        cause = new byte[faults];
        notices = new int[faults][];
        kinds = new byte[faults][];
        weights = new double[faults][];
        cost = new double[faults];
        prevSame = new int[faults];
        nextOnUnit = new int[faults];
        pattern = new byte[faults];
        Map<List<Long>, List<int[]>> pending = new HashMap<>();
        Map<List<Long>, Integer> last = new HashMap<>();
        Map<Long, Integer> lastOnUnit = new HashMap<>();
        int s = 0;
        for (int f = 0; f < faults; f++) {
            for (; s < t.syncs && t.sBefore[s] <= f; s++) {
                for (int i = t.sFirst[s]; i < t.sFirst[s + 1]; i++) {
                    pending.computeIfAbsent(List.of(t.pUnit[i], (long) t.sProc[s]), k -> new ArrayList<>())
                            .add(new int[] {t.pFault[i], t.sKind[s]});
                }
            }
            List<Long> key = List.of(t.unit[f], (long) t.proc[f]);
            prevSame[f] = last.getOrDefault(key, -1);
            last.put(key, f);
            nextOnUnit[f] = -1;
            Integer before = lastOnUnit.put(t.unit[f], f);
            if (before != null) {
                nextOnUnit[before] = f;
            }
            List<int[]> p = pending.remove(key);
            notices[f] = new int[0];
            kinds[f] = new byte[0];
            weights[f] = new double[0];
            if (prevSame[f] < 0) {
                cause[f] = Explainer.COLD;
                cost[f] = cm.cold();
            } else if (p != null) {
                cause[f] = Explainer.INVALIDATION;
                TreeMap<Integer, Integer> kindOf = new TreeMap<>();
                for (int[] n : p) {
                    kindOf.merge(n[0], n[1], Math::min);
                }
                notices[f] = kindOf.keySet().stream().mapToInt(Integer::intValue).toArray();
                kinds[f] = new byte[notices[f].length];
                weights[f] = new double[notices[f].length];
                Set<Integer> writers = new HashSet<>();
                for (int k = 0; k < notices[f].length; k++) {
                    kinds[f][k] = (byte) (int) kindOf.get(notices[f][k]);
                    weights[f][k] = cm.edge(writers.add(t.proc[notices[f][k]]));
                    cost[f] += weights[f][k];
                }
            } else if (t.write[f]) {
                cause[f] = Explainer.TWIN;
                cost[f] = cm.diffCreate();
            } else {
                cause[f] = Explainer.UNEXPLAINED;
                cost[f] = cm.cold();
            }
        }
        patterns(t);
    }

    private void patterns(FaultTrace t) {
        Map<Integer, List<Integer>> consumersOf = new HashMap<>();
        for (int f = 0; f < t.faults(); f++) {
            for (int w : notices[f]) {
                consumersOf.computeIfAbsent(w, x -> new ArrayList<>()).add(f);
            }
            pattern[f] = (byte) (cause[f] == Explainer.TWIN ? -1 : Pattern.COLD_START.ordinal());
        }
        boolean[] done = new boolean[t.faults()];
        for (int f = 0; f < t.faults(); f++) {
            if (cause[f] != Explainer.INVALIDATION || done[f]) {
                continue;
            }
            List<Integer> interval = new ArrayList<>();
            ArrayDeque<Integer> todo = new ArrayDeque<>(List.of(f));
            done[f] = true;
            while (!todo.isEmpty()) {
                int x = todo.poll();
                interval.add(x);
                for (int w : notices[x]) {
                    for (int y : consumersOf.get(w)) {
                        if (!done[y]) {
                            done[y] = true;
                            todo.add(y);
                        }
                    }
                }
            }
            Set<Integer> producers = new HashSet<>();
            Set<Integer> consumers = new HashSet<>();
            boolean writesNext = true;
            for (int x : interval) {
                consumers.add(t.proc[x]);
                for (int w : notices[x]) {
                    producers.add(t.proc[w]);
                }
                int g = t.write[x] ? x : nextOnUnit[x];
                writesNext &= g >= 0 && t.proc[g] == t.proc[x] && t.write[g] && consumersOf.containsKey(g);
            }
            Pattern p = producers.size() == 1 && consumers.size() == 1 && !producers.equals(consumers) && writesNext
                    ? Pattern.MIGRATORY : Pattern.of(producers.size() > 1, consumers.size() > 1);
            for (int x : interval) {
                pattern[x] = (byte) p.ordinal();
            }
        }
    }
}
