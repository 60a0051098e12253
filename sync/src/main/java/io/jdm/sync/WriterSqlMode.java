package io.jdm.sync;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.SqlModes;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sql_mode the writers apply rows in, chosen as the load chooses its own: the rows are what
 * the source's sessions stored, so they are written back in the source's sql_mode made fit for
 * replay ({@link SqlModes#replayOf}: strict exactly where the source was). A non-strict source's
 * row whose generated column the source clipped to its type is then applied as the source stored
 * it, not refused. The task's {@code target-database} session wins when it sets sql_mode; a
 * source that cannot be asked leaves {@link SqlModes#REPLAY}, strict. A mode the target refuses is
 * set without the modes inert in replay; one it still refuses stops the unit before it starts.
 */
final class WriterSqlMode {
    private static final Logger LOG = LoggerFactory.getLogger(WriterSqlMode.class);

    private WriterSqlMode() {
    }

    /** The target spec the writers connect with: the task's, with the chosen sql_mode in its session. */
    static ConnectionSpec writerTarget(SyncConfig cfg, Connection target) {
        if (cfg.target().session().keySet().stream().anyMatch(k -> k.toLowerCase(Locale.ROOT).equals("sql_mode"))) {
            return cfg.target(); // the user's word
        }
        String mode;
        String origin;
        try (Connection c = DataSources.connect(cfg.source())) {
            String source = SqlModes.global(c);
            mode = SqlModes.replayOf(source);
            origin = "the source's sql_mode '" + source + "', made fit for replay";
        } catch (SQLException e) {
            LOG.warn("sync: cannot read the source's sql_mode from {} ({}); writing strict, in jdm's own mode",
                    cfg.source().address(), ErrorClassifier.oneLine(e));
            mode = SqlModes.REPLAY;
            origin = "jdm's own strict mode";
        }
        String taken;
        try (Statement st = target.createStatement()) {
            taken = SqlModes.set(st, mode);
            st.execute("SET SESSION sql_mode = DEFAULT");
        } catch (SQLException e) {
            if (ErrorClassifier.isRetriable(e)) {
                throw ErrorClassifier.wrap("sync: cannot set sql_mode on the target " + cfg.target().address(), e);
            }
            throw new FatalException("sync: the target refuses sql_mode '" + mode + "' (" + origin + "): "
                    + ErrorClassifier.oneLine(e) + "; set sql_mode in the task's target-database session to a mode"
                    + " the target takes, and restart", e);
        }
        LOG.info("sync: writers apply rows in sql_mode '{}' ({})", taken, origin);
        return cfg.target().withSession(Map.of("sql_mode", taken));
    }
}
