package io.jdm.cli.run;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server id a binlog reader presents to its source when the task names none. A source drops
 * an older stream when a new one registers the same id, so two readers sharing one (two tasks on a
 * source, or a restart while the old process still streams) evict each other in turn. As DM does,
 * each process picks a random id, avoiding the source's own and the replicas it lists.
 */
final class ServerIds {
    private static final Logger LOG = LoggerFactory.getLogger(ServerIds.class);
    /** jdm's readers use 400000..1399999: clear of the small ids people give their servers. */
    private static final long BASE = 400_000;
    private static final int SPAN = 1_000_000;

    private ServerIds() {
    }

    static long pick(ConnectionSpec source) {
        Set<Long> taken = taken(source);
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        while (true) {
            long id = BASE + rnd.nextInt(SPAN);
            if (!taken.contains(id)) {
                return id;
            }
        }
    }

    /** The source's own id and those of the replicas it lists; empty where it will not say. */
    private static Set<Long> taken(ConnectionSpec source) {
        Set<Long> ids = new HashSet<>();
        try (Connection c = DataSources.connect(source); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT @@server_id")) {
                if (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            for (String q : new String[] {"SHOW REPLICAS", "SHOW SLAVE HOSTS"}) {
                try (ResultSet rs = st.executeQuery(q)) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1)); // Server_id comes first in both spellings
                    }
                    break;
                } catch (SQLException e) {
                    // the other spelling, or no REPLICATION SLAVE ADMIN privilege: the random pick still holds
                }
            }
        } catch (SQLException e) {
            LOG.debug("cannot list the server ids in use on {}: {}", source.address(), e.getMessage());
        }
        return ids;
    }
}
