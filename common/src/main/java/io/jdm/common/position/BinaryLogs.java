package io.jdm.common.position;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A source's binary log files and their sizes, oldest first, as {@code SHOW BINARY LOGS} lists
 * them: how many bytes of binlog a reader at some position still has before it (DM's
 * {@code Binlogs.After}, what its remaining time to catch up divides).
 */
public record BinaryLogs(List<File> files) {
    /** One file and its size in bytes (the newest file's size is the source's current end). */
    public record File(String name, long size) {
    }

    public BinaryLogs {
        files = List.copyOf(files);
    }

    /** The source's list; needs the privilege {@code SHOW MASTER STATUS} needs (REPLICATION CLIENT). */
    public static BinaryLogs read(Connection c) throws SQLException {
        List<File> files = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW BINARY LOGS")) {
            while (rs.next()) {
                files.add(new File(rs.getString(1), rs.getLong(2)));
            }
        }
        return new BinaryLogs(files);
    }

    /**
     * Bytes from {@code p} to the end of the newest file; -1 when {@code p}'s file is not listed
     * (purged, or another server's).
     */
    public long bytesAfter(BinlogPosition p) {
        long after = 0;
        boolean found = false;
        for (File f : files) {
            if (found) {
                after += f.size();
            } else if (f.name().equals(p.file())) {
                found = true;
                after += Math.max(0, f.size() - p.pos());
            }
        }
        return found ? after : -1;
    }
}
