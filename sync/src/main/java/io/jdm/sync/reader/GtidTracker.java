package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.GtidSet;
import java.util.Map;
import java.util.TreeMap;

/**
 * The GTID set executed so far, in the source's own syntax: MariaDB keeps the last GTID per domain
 * ({@code 0-1-42,1-2-7}), MySQL a set of UUID intervals. Starts from what the start position knew.
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
                    domains.put(Long.parseLong(t.substring(0, t.indexOf('-'))), t);
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
            domains.put(Long.parseLong(gtid.substring(0, gtid.indexOf('-'))), gtid);
        } else {
            mysql.add(gtid);
        }
        rendered = render();
    }

    String current() {
        return rendered;
    }

    private String render() {
        return mariadb ? String.join(",", domains.values()) : mysql.toString();
    }
}
