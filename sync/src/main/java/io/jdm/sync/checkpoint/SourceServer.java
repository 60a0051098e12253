package io.jdm.sync.checkpoint;

import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Which server's binlog a position is in: MySQL's {@code server_uuid}, MariaDB's {@code server_id}
 * (it has no UUID), and the basename of the files it logs to now. With GTIDs a checkpoint says
 * which transactions were applied on any server of the same history; without them it is a file
 * and an offset, which mean nothing on a replica that took over or after a restart with another
 * {@code log-bin} basename (the files count from 000001 again). {@link #mismatch} finds that case,
 * so the task stops with one line instead of skipping or replaying changes in silence.
 *
 * @param id       {@code uuid:<server_uuid>}, {@code server_id:<n>}, or empty when unknown (TiDB)
 * @param basename the current binlog file's name without its numeric suffix
 */
public record SourceServer(String id, String basename) {

    /** Reads the server's identity and its current binlog file's basename. */
    public static SourceServer read(Connection c) throws SQLException {
        Flavor flavor = Flavor.detect(c);
        if (flavor == Flavor.TIDB) {
            return new SourceServer("", "");
        }
        String id;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(flavor == Flavor.MYSQL ? "SELECT @@server_uuid" : "SELECT @@server_id")) {
            rs.next();
            id = (flavor == Flavor.MYSQL ? "uuid:" : "server_id:") + rs.getString(1);
        }
        return new SourceServer(id, basename(flavor.currentPosition(c).file()));
    }

    /** {@code mysql-bin.000042} → {@code mysql-bin}; a name without a numeric suffix is its own basename. */
    public static String basename(String file) {
        int dot = file.lastIndexOf('.');
        return dot > 0 && BinlogPosition.of(file, 0).fileIndex() >= 0 ? file.substring(0, dot) : file;
    }

    /**
     * Why the position {@code saved}, stored while reading the server {@code savedServer} (empty
     * when the row names none), cannot be read on this server, or null when it can. Only a position
     * without GTIDs is ever refused: with them the GTID set decides what was applied.
     */
    public String mismatch(BinlogPosition saved, String savedServer) {
        if (saved.hasGtid() || id.isEmpty()) {
            return null;
        }
        if (!savedServer.isEmpty() && !savedServer.equals(id)) {
            return "the checkpoint " + saved.file() + ":" + saved.pos() + " is in the binlog of the source server "
                    + savedServer + ", but the source is now server " + id;
        }
        String savedBase = basename(saved.file());
        if (!savedBase.equals(basename)) {
            return "the checkpoint " + saved.file() + ":" + saved.pos() + " is in binlog files named " + savedBase
                    + ".*, but the source now logs to " + basename + ".* (log-bin changed)";
        }
        return null;
    }
}
