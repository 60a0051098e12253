package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.GtidSet;
import java.util.Map;
import java.util.TreeMap;

/**
 * The GTID set executed so far, in the source's own syntax: MariaDB keeps the last GTID per domain
 * ({@code 0-1-42,1-2-7}), MySQL a set of UUID intervals. Starts from what the start position knew.
 *
 * <p>A prepared XA transaction whose outcome has not been read yet is held out of a MySQL set until
 * its outcome (a hole the source fills on reconnect), so a stream reopened at any later position
 * reads it again (see {@link XaTransactions}). A MariaDB state cannot express a hole, and holding
 * its domain back would give every later transaction the same GTID state, which is what orders
 * positions: there it counts as executed at once, and {@link #positionText} adds a second state to
 * restart from, with the held transaction's domain back where it was before it ({@code
 * ChangePos.RESTART}).
 */
final class GtidTracker {
    private final boolean mariadb;
    private final Map<Long, String> domains = new TreeMap<>();
    private final GtidSet mysql;
    /** MariaDB: each held prepared transaction's GTID → its domain's GTID before it ("" if none). */
    private final Map<String, String> held = new java.util.LinkedHashMap<>();
    private String rendered;
    private String positionText;

    GtidTracker(boolean mariadb, String initial) {
        this.mariadb = mariadb;
        String init = initial == null ? "" : initial.trim();
        if (mariadb) {
            mysql = null;
            for (String g : init.split(",")) {
                String t = g.trim();
                if (!t.isEmpty()) {
                    domains.put(domain(t), t);
                }
            }
        } else {
            mysql = new GtidSet(init);
        }
        rendered = render();
    }

    void commit(String gtid) {
        if (gtid == null) {
            return;
        }
        if (mariadb) {
            domains.put(domain(gtid), gtid);
        } else {
            mysql.add(gtid);
        }
        rendered = render();
    }

    /**
     * A prepared XA transaction: read, but (MySQL) not executed until {@link #release}d; MariaDB
     * counts it at once and restarts before it until then.
     */
    void hold(String gtid) {
        if (mariadb && gtid != null) {
            String before = domains.getOrDefault(domain(gtid), "");
            commit(gtid);
            held.put(gtid, before);
            rendered = render();
        }
    }

    /** The outcome of a held transaction was read: it counts as executed. */
    void release(String gtid) {
        if (!mariadb) {
            commit(gtid);
        } else if (gtid != null && held.remove(gtid) != null) {
            rendered = render();
        }
    }

    /** The executed set, which orders positions. */
    String current() {
        return rendered;
    }

    /**
     * What a position carries: {@link #current()}, and on MariaDB while a prepared transaction is
     * held, the state to restart from so that it is read again: {@code ordering~restart}.
     */
    String positionText() {
        return positionText;
    }

    private static long domain(String mariadbGtid) {
        return Long.parseLong(mariadbGtid.substring(0, mariadbGtid.indexOf('-')));
    }

    private String render() {
        if (!mariadb) {
            positionText = mysql.toString();
            return positionText;
        }
        String ordering = String.join(",", domains.values());
        positionText = ordering;
        if (!held.isEmpty()) {
            Map<Long, String> restart = new TreeMap<>(domains);
            java.util.Set<Long> back = new java.util.HashSet<>();
            for (Map.Entry<String, String> h : held.entrySet()) { // oldest first: the first per domain wins
                long d = domain(h.getKey());
                if (back.add(d)) {
                    if (h.getValue().isEmpty()) {
                        restart.remove(d); // the domain's first transaction: a state without it reads it all
                    } else {
                        restart.put(d, h.getValue());
                    }
                }
            }
            positionText = io.jdm.sync.ring.ChangePos.withRestart(ordering, String.join(",", restart.values()));
        }
        return ordering;
    }
}
