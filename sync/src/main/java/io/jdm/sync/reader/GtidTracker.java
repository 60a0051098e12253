package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.GtidSet;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The GTID set executed so far, in the source's own syntax: MariaDB keeps the last GTID per domain
 * ({@code 0-1-42,1-2-7}), MySQL a set of UUID intervals. Starts from what the start position knew.
 *
 * <p>A prepared XA transaction whose outcome has not been read yet is held out of the set, so
 * that a stream reopened at any later position reads it again (see {@link XaTransactions}): MySQL
 * leaves its GTID out until it is released (the set has a hole the source fills on reconnect);
 * MariaDB cannot express a hole, so its domain shows the GTID before the first held transaction
 * until every held one of the domain is released, and the source sends everything after it again.
 */
final class GtidTracker {
    private final boolean mariadb;
    private final Map<Long, String> domains = new TreeMap<>();
    /** MariaDB domains with held transactions: the GTID shown meanwhile (null: none) and how many are held. */
    private final Map<Long, String> heldAt = new HashMap<>();
    private final Map<Long, Integer> heldCount = new HashMap<>();
    private final GtidSet mysql;
    private String rendered;

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

    /** A prepared XA transaction: read, but not executed until {@link #release}d. */
    void hold(String gtid) {
        if (gtid == null || !mariadb) {
            return;
        }
        long d = domain(gtid);
        if (heldCount.merge(d, 1, Integer::sum) == 1) {
            heldAt.put(d, domains.get(d));
        }
        commit(gtid);
    }

    /** The outcome of a held transaction was read: it counts as executed. */
    void release(String gtid) {
        if (gtid == null) {
            return;
        }
        if (mariadb) {
            long d = domain(gtid);
            if (heldCount.merge(d, -1, Integer::sum) <= 0) {
                heldCount.remove(d);
                heldAt.remove(d);
            }
            rendered = render();
        } else {
            commit(gtid);
        }
    }

    String current() {
        return rendered;
    }

    private static long domain(String mariadbGtid) {
        return Long.parseLong(mariadbGtid.substring(0, mariadbGtid.indexOf('-')));
    }

    private String render() {
        if (!mariadb) {
            return mysql.toString();
        }
        StringBuilder sb = new StringBuilder();
        domains.forEach((d, g) -> {
            String shown = heldAt.containsKey(d) ? heldAt.get(d) : g;
            if (shown != null) {
                sb.append(sb.length() == 0 ? "" : ",").append(shown);
            }
        });
        return sb.toString();
    }
}
