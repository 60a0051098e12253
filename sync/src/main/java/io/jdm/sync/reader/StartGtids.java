package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.GtidSet;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GTID set executed at a start position given only as file and offset (meta's {@code
 * binlog-name}/{@code binlog-pos}, a dump whose metadata has no GTID). Positions are ordered by
 * GTID set where there is one (see {@code ChangePos}) and a GTID restart asks the source for every
 * transaction not in the set: a set that starts empty and holds only what the stream saw would make
 * the source send its whole history again on the first restart. So the set is completed once, at
 * the first start: MariaDB answers {@code BINLOG_GTID_POS(file, pos)}; MySQL's is the file's
 * Previous_gtids plus every GTID logged in it before the offset ({@code SHOW BINLOG EVENTS}). With
 * GTID off (MySQL {@code gtid_mode} not ON) the position stays as it is.
 */
public final class StartGtids {
    private static final Logger LOG = LoggerFactory.getLogger(StartGtids.class);
    private static final String GTID_NEXT = "GTID_NEXT=";

    private StartGtids() {
    }

    /** {@code start} with the GTID set executed at it, or as it is when it has one or the source has none. */
    public static BinlogPosition complete(ConnectionSpec source, BinlogPosition start) {
        if (start == null || start.hasGtid()) {
            return start;
        }
        try (Connection c = DataSources.connect(source)) {
            Flavor flavor = Flavor.detect(c);
            if (flavor == Flavor.TIDB) {
                return start;
            }
            String set = flavor == Flavor.MARIADB ? mariadb(c, start) : mysql(c, start);
            if (set == null || set.isBlank()) {
                return start;
            }
            LOG.info("sync: the start position {} has the GTID set {}", start, set);
            return new BinlogPosition(start.file(), start.pos(), set);
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("sync: cannot read the GTID set at the start position " + start
                    + " on the source " + source.address(), e);
        }
    }

    private static String mariadb(Connection c, BinlogPosition start) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT BINLOG_GTID_POS(?, ?)")) {
            ps.setString(1, start.file());
            ps.setLong(2, start.pos());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static String mysql(Connection c, BinlogPosition start) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @@GLOBAL.gtid_mode")) {
            if (!rs.next() || !"ON".equalsIgnoreCase(rs.getString(1))) {
                return null;
            }
        }
        GtidSet set = new GtidSet("");
        boolean read = false;
        try (Statement st = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            st.setFetchSize(Integer.MIN_VALUE);
            try (ResultSet rs = st.executeQuery("SHOW BINLOG EVENTS IN '" + start.file().replace("'", "''") + "'")) {
                while (rs.next() && rs.getLong("Pos") < start.pos()) {
                    String type = rs.getString("Event_type").toLowerCase(Locale.ROOT);
                    String info = rs.getString("Info");
                    if (type.equals("previous_gtids")) {
                        set = new GtidSet(info.replace("\n", ""));
                    } else if (type.equals("gtid")) {
                        set.add(gtidOf(info));
                    }
                }
                read = true;
                st.cancel(); // the rest of a large file is not needed
            }
        } catch (SQLException e) {
            if (!read) {
                // a purged or unknown file: the stream's own start says so in its words
                LOG.warn("sync: cannot read the GTIDs of {} before {}: {}", start.file(), start.pos(), e.getMessage());
                return null;
            }
        }
        return set.toString();
    }

    /** {@code SET @@SESSION.GTID_NEXT= 'uuid:n'} → {@code uuid:n}. */
    static String gtidOf(String info) {
        int at = info.toUpperCase(Locale.ROOT).indexOf(GTID_NEXT);
        if (at < 0) {
            throw new IllegalArgumentException("not a GTID event: " + info);
        }
        String rest = info.substring(at + GTID_NEXT.length()).trim();
        int open = rest.indexOf('\'');
        return rest.substring(open + 1, rest.indexOf('\'', open + 1));
    }
}
