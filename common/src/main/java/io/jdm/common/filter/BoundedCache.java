package io.jdm.common.filter;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Remembers answers per table name: sync asks the same question for every row of a table. Past
 * the bound new answers are computed and not kept, so a source with millions of tables costs CPU,
 * not heap.
 */
final class BoundedCache<V> {
    private static final int MAX_ENTRIES = 100_000;

    private final ConcurrentHashMap<String, V> entries = new ConcurrentHashMap<>();

    V get(String db, String table, Function<String, V> compute) {
        // NUL cannot appear in a MySQL identifier, so the key is unambiguous.
        String key = db + '\0' + table;
        V v = entries.get(key);
        if (v == null) {
            v = compute.apply(key);
            if (entries.size() < MAX_ENTRIES) {
                entries.putIfAbsent(key, v);
            }
        }
        return v;
    }
}
