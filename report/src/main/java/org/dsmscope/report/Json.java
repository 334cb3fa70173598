package org.dsmscope.report;

import com.fasterxml.jackson.databind.JsonNode;

/** Reading numbers out of a result's JSON tree by path (a missing field reads as 0 or an empty array). */
final class Json {
    private Json() {
    }

    static JsonNode at(JsonNode n, String path) {
        for (String part : path.split("/")) {
            n = n.path(part);
        }
        return n;
    }

    static long l(JsonNode n, String path) {
        return at(n, path).asLong();
    }

    static double d(JsonNode n, String path) {
        return at(n, path).asDouble();
    }

    static long[] longs(JsonNode array) {
        long[] a = new long[array.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = array.get(i).asLong();
        }
        return a;
    }

    static long sum(JsonNode array) {
        long s = 0;
        for (JsonNode v : array) {
            s += v.asLong();
        }
        return s;
    }

    /** The number as the JSON file writes it (integers without a decimal point). */
    static String raw(JsonNode v) {
        return v.isIntegralNumber() ? v.asText() : Fmt.raw(v.asDouble());
    }
}
