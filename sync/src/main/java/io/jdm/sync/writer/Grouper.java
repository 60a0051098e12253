package io.jdm.sync.writer;

import io.jdm.sync.ring.RowChange.Kind;
import io.jdm.sync.ring.TableInfo;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Orders a batch for multi-row statements: changes of one table and kind are brought together, so
 * a batch spread over a few tables becomes a few statements instead of one per row. A change moves
 * only past changes that share none of its keys (primary key and every NOT NULL unique key, old and
 * new image; a keyless table has one key for all its rows), so every pair of changes that touch a
 * common row or unique value keeps its binlog order: each change joins the last group of its table
 * and kind only when no later group holds a change it shares a key with, else it starts a new group.
 * Within a group, rows are written in batch order, as one statement writes them.
 *
 * <p>In safe mode an UPDATE becomes what it is written as before grouping: a REPLACE of the new
 * image, preceded by a DELETE of the old key when the key changes (REPLACE removes a row of its own
 * identity itself), so it groups with the other DELETEs and REPLACEs; an UPDATE that must keep the
 * target's own columns stays one upsert.
 */
final class Grouper {
    private Grouper() {
    }

    static List<Pending> group(List<Pending> batch, boolean safe) {
        List<Group> groups = new ArrayList<>();
        Map<Kind, Map<TableInfo, Integer>> lastOfSignature = new EnumMap<>(Kind.class);
        Map<String, Integer> lastOfKey = new HashMap<>();
        for (Pending p : batch) {
            if (safe && splits(p)) {
                if (!p.keepsIdentity()) {
                    place(new Pending(Kind.DELETE, p.table(), p.before(), null, p.keys()), groups, lastOfSignature,
                            lastOfKey);
                }
                place(new Pending(Kind.INSERT, p.table(), null, p.after(), p.keys()), groups, lastOfSignature,
                        lastOfKey);
            } else {
                place(p, groups, lastOfSignature, lastOfKey);
            }
        }
        List<Pending> out = new ArrayList<>(batch.size());
        for (Group g : groups) {
            out.addAll(g.rows());
        }
        return out;
    }

    /** A safe-mode UPDATE that is written as REPLACE (after a DELETE when its key changes) anyway. */
    private static boolean splits(Pending p) {
        TableInfo t = p.table();
        return p.kind() == Kind.UPDATE && !t.keyless() && !t.targetHasMoreColumns() && !t.spool();
    }

    private static void place(Pending p, List<Group> groups, Map<Kind, Map<TableInfo, Integer>> lastOfSignature,
                             Map<String, Integer> lastOfKey) {
        int conflict = -1;
        for (String k : p.keys()) {
            Integer g = lastOfKey.get(k);
            if (g != null && g > conflict) {
                conflict = g;
            }
        }
        Map<TableInfo, Integer> last = groupable(p)
                ? lastOfSignature.computeIfAbsent(p.kind(), k -> new IdentityHashMap<>()) : null;
        Integer g = last == null ? null : last.get(p.table());
        int at;
        if (g != null && g >= conflict) {
            at = g;
        } else {
            at = groups.size();
            groups.add(new Group());
            if (last != null) {
                last.put(p.table(), at);
            }
        }
        groups.get(at).rows().add(p);
        for (String k : p.keys()) {
            lastOfKey.put(k, at);
        }
    }

    /**
     * True when a change may share one statement with others of its table (the very same table
     * object) and kind; keyless UPDATEs and DELETEs and UPDATEs that change their key are always a
     * statement of their own.
     */
    private static boolean groupable(Pending p) {
        return p.table().keyless() ? p.kind() == Kind.INSERT : p.kind() != Kind.UPDATE || p.keepsIdentity();
    }

    private record Group(List<Pending> rows) {
        Group() {
            this(new ArrayList<>());
        }
    }
}
