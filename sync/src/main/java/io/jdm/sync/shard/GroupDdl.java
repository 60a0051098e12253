package io.jdm.sync.shard;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.jdm.common.error.FatalException;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.sync.checkpoint.DdlMarkers;
import io.jdm.sync.ring.SessionSwitch;
import io.jdm.sync.ring.SourceSession;
import io.jdm.sync.writer.DdlApplier;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A group DDL as the shard modes run it on the target: in the session it ran in on the source (kept
 * as JSON in the lock table), "already there" errors taken as done, statements compared with
 * whitespace collapsed.
 */
public final class GroupDdl {
    private static final Logger LOG = LoggerFactory.getLogger(GroupDdl.class);

    private GroupDdl() {
    }

    /** Runs a lock's statement in its first shard's session (or says it ran already). */
    public static void run(Connection c, ShardStore.Lock lock, boolean ranAlready) throws SQLException {
        if (ranAlready) {
            LOG.info("sync: group DDL {} of {} had run before a stop: not run again", lock.seq(), lock.target());
            return;
        }
        try (Statement st = c.createStatement()) {
            st.execute("USE " + Identifiers.quote(lock.target().schema()));
            SourceSession session = lock.session() == null ? null : SourceSession.fromJson(lock.session());
            try (SessionSwitch ignored = session == null ? null
                    : SessionSwitch.enter(c, session, "group DDL " + lock.seq() + " of " + lock.target())) {
                st.execute(lock.ddl());
            }
        } catch (SQLException e) {
            if (!DdlApplier.alreadyDone(e)) {
                throw e;
            }
            LOG.warn("sync: group DDL {} of {} looks applied already: {}", lock.seq(), lock.target(), e.getMessage());
        } catch (JsonProcessingException e) {
            throw new FatalException("sync: the session of group DDL " + lock.seq() + " of " + lock.target()
                    + " in the lock table cannot be read: " + e.getOriginalMessage(), e);
        }
    }

    /** The target table's definition now ({@code SHOW CREATE TABLE}), or null when it does not exist. */
    static String definition(Connection c, TableName t) throws SQLException {
        return DdlMarkers.snapshot(c, List.of(t)).get(0).definition();
    }

    static String normalize(String sql) {
        return sql.strip().replaceAll("\\s+", " ");
    }

    static String json(SourceSession s) {
        return s == null ? null : s.json();
    }
}
