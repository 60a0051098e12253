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
 * positions: there it counts as executed at once.
 */
final class GtidTracker {
    private final boolean mariadb;
    private final Map<Long, String> domains = new TreeMap<>();
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

    /** A prepared XA transaction: read, but (MySQL) not executed until {@link #release}d. */
    void hold(String gtid) {
        if (mariadb) {
            commit(gtid);
        }
    }

    /** The outcome of a held transaction was read: it counts as executed. */
    void release(String gtid) {
        if (!mariadb) {
            commit(gtid);
        }
    }

    /** True when a restart by GTID reads a held transaction again (MySQL's sets can leave it out). */
    boolean holdsOut() {
        return !mariadb;
    }

    String current() {
        return rendered;
    }

    private static long domain(String mariadbGtid) {
        return Long.parseLong(mariadbGtid.substring(0, mariadbGtid.indexOf('-')));
    }

    private String render() {
        return mariadb ? String.join(",", domains.values()) : mysql.toString();
    }
}
