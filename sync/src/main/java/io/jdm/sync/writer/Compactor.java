package io.jdm.sync.writer;

import io.jdm.sync.ring.RowChange.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Merges changes to the same row inside one batch: INSERT+UPDATE → INSERT, UPDATE+UPDATE →
 * UPDATE, INSERT/UPDATE+DELETE → DELETE, DELETE+INSERT of the same identity → an UPDATE marked
 * {@link Pending#replaces()} (written as REPLACE or an upsert: one row written instead of a row
 * removed and another added). A change merges into an earlier one only when every key it touches
 * was last touched by that very change, so no change in between could see a different order.
 * Keyless tables are never merged; nor is a DELETE followed by an INSERT where the target table has
 * columns of its own (the INSERT resets them to their defaults, an upsert would keep them) or is a
 * shard's spool, nor a DELETE followed by an UPDATE (the source cannot write one).
 */
final class Compactor {
    private Compactor() {
    }

    static List<Pending> compact(List<Pending> batch) {
        List<Pending> out = new ArrayList<>(batch.size());
        Map<String, Integer> lastTouch = new HashMap<>();
        for (Pending c : batch) {
            Integer target = c.table().keyless() ? null : mergeTarget(c, out, lastTouch);
            int index;
            if (target != null) {
                Pending p = out.get(target);
                out.set(target, merge(p, c));
                index = target;
            } else {
                out.add(c);
                index = out.size() - 1;
            }
            for (String k : c.keys()) {
                lastTouch.put(k, index);
            }
        }
        out.removeIf(Objects::isNull);
        return out;
    }

    private static Integer mergeTarget(Pending c, List<Pending> out, Map<String, Integer> lastTouch) {
        if (c.kind() == Kind.INSERT && (c.table().targetHasMoreColumns() || c.table().spool())) {
            return null;
        }
        Integer target = null;
        for (String k : c.keys()) {
            Integer i = lastTouch.get(k);
            if (i == null) {
                continue;
            }
            if (target != null && !target.equals(i)) {
                return null;
            }
            target = i;
        }
        if (target == null) {
            return null;
        }
        Pending p = out.get(target);
        if (p == null || p.table() != c.table()) {
            return null;
        }
        if (c.kind() == Kind.INSERT) {
            return p.kind() == Kind.DELETE && sameIdentity(c, c.after(), p.before()) ? target : null;
        }
        if (p.kind() == Kind.DELETE || !sameIdentity(c, c.before(), p.after())) {
            return null;
        }
        return target;
    }

    private static boolean sameIdentity(Pending c, Object[] a, Object[] b) {
        for (int i : c.table().identity()) {
            if (!Objects.deepEquals(a[i], b[i])) {
                return false;
            }
        }
        return true;
    }

    private static Pending merge(Pending p, Pending c) {
        String[] keys = union(p.keys(), c.keys());
        if (c.kind() == Kind.INSERT) {
            // p is a DELETE of the same identity
            return new Pending(Kind.UPDATE, p.table(), p.before(), c.after(), keys, true);
        }
        if (c.kind() == Kind.DELETE) {
            if (p.kind() == Kind.INSERT) {
                // The row never reached the target; deleting by its key is a no-op there and keeps order simple.
                return new Pending(Kind.DELETE, p.table(), p.after(), null, keys);
            }
            return new Pending(Kind.DELETE, p.table(), p.before(), null, keys);
        }
        // c is an UPDATE
        if (p.kind() == Kind.INSERT) {
            return new Pending(Kind.INSERT, p.table(), null, c.after(), keys);
        }
        return new Pending(Kind.UPDATE, p.table(), p.before(), c.after(), keys, p.replaces());
    }

    private static String[] union(String[] a, String[] b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        int n = a.length;
        outer:
        for (String s : b) {
            for (int i = 0; i < n; i++) {
                if (out[i].equals(s)) {
                    continue outer;
                }
            }
            out[n++] = s;
        }
        return Arrays.copyOf(out, n);
    }
}
