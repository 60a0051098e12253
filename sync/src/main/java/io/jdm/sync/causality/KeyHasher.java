package io.jdm.sync.causality;

import io.jdm.common.schema.Column;
import io.jdm.sync.ring.RowChange;
import io.jdm.sync.ring.TableInfo;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The keys of a change (primary key and every NOT NULL unique key, in the old and the new image)
 * as strings, and the route: a stable hash of the first key. The route must depend on the change
 * alone, so that a restart sends every change to the same writer as before.
 */
final class KeyHasher {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private KeyHasher() {
    }

    static String[] keys(RowChange c) {
        TableInfo t = c.table();
        String prefix = t.source().schema() + '.' + t.source().table();
        if (t.keyless()) {
            // One key per table: all its changes go to one writer, in binlog order.
            return new String[] {prefix};
        }
        Set<String> keys = new LinkedHashSet<>(4);
        addKeys(keys, prefix, t, c.oldImage());
        if (c.kind() == RowChange.Kind.UPDATE) {
            addKeys(keys, prefix, t, c.after());
        }
        return keys.toArray(new String[0]);
    }

    private static void addKeys(Set<String> out, String prefix, TableInfo t, Object[] row) {
        for (int k = 0; k < t.keys().size(); k++) {
            int[] cols = t.keys().get(k);
            StringBuilder sb = new StringBuilder(prefix.length() + 16).append(prefix).append('\u0000').append(k);
            for (int col : cols) {
                sb.append('\u0001');
                append(sb, t.column(col), row[col]);
            }
            out.add(sb.toString());
        }
    }

    /** Values as the server compares them: case and trailing spaces ignored under a _ci collation. */
    private static void append(StringBuilder sb, Column col, Object v) {
        if (v == null) {
            sb.append('\u0002');
        } else if (v instanceof byte[] b) {
            for (byte x : b) {
                sb.append(HEX[(x >> 4) & 0xF]).append(HEX[x & 0xF]);
            }
        } else if (v instanceof String s && col.collation() != null && !col.collation().endsWith("_bin")
                && col.isString()) {
            sb.append(stripTrailingSpaces(s).toLowerCase(Locale.ROOT));
        } else if (v instanceof java.math.BigDecimal d) {
            sb.append(d.stripTrailingZeros().toPlainString());
        } else {
            sb.append(v);
        }
    }

    private static String stripTrailingSpaces(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    /** A well-mixed stable hash of the first key. */
    static int hash(String key) {
        int h = key.hashCode();
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }

    static int route(int hash, int writers) {
        return Math.floorMod(hash, writers);
    }
}
