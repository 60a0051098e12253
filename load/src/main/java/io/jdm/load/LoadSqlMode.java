package io.jdm.load;

import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
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
 * The sql_mode every connection of the load writes in. The rows of a dump are what the source's
 * sessions stored under the source's sql_mode: a non-strict source stores a generated column's
 * value clipped to its type where a strict session refuses the whole row. So the load writes in
 * the source's mode made fit for replay ({@link SqlModes#replayOf}): strict exactly where the
 * source was, so a value a narrower target column could only truncate still fails there. The mode
 * comes from, first found:
 * <ol>
 * <li>the task's {@code target-database.session}: the user's word, as configured;
 * <li>the dump's {@code metadata}, where jdm records the source's global sql_mode;
 * <li>the source, when the task names the one the dump was taken from (a Dumpling or mydumper dump,
 * or a dump being followed, whose metadata is written last);
 * <li>else {@link SqlModes#REPLAY}, strict, as before the source's mode was known.
 * </ol>
 * A mode the target refuses is set without the modes inert in replay ({@link SqlModes#set}); one it
 * still refuses stops the load before anything is written.
 */
final class LoadSqlMode {
    private static final Logger LOG = LoggerFactory.getLogger(LoadSqlMode.class);

    private LoadSqlMode() {
    }

    /** A mode and where it came from, for the log line. */
    record Choice(String mode, String origin) {
    }

    /**
     * The load's sql_mode, as the target takes it, logged once with where it came from.
     *
     * @param meta the dump's metadata; null while a dump being followed has not written it
     */
    static String decide(LoadJob job, DumpMetadata meta) {
        Choice choice = choose(job, meta);
        String taken = job.withRetry("setting sql_mode", c -> {
            try (Statement st = c.createStatement()) {
                return SqlModes.set(st, choice.mode());
            } catch (SQLException e) {
                if (ErrorClassifier.isRetriable(e)) {
                    throw e;
                }
                throw new FatalException(job.who() + ": the target refuses sql_mode '" + choice.mode() + "' ("
                        + choice.origin() + "): " + ErrorClassifier.oneLine(e) + "; set sql_mode in the task's"
                        + " target-database session to a mode the target takes, and rerun", e);
            }
        });
        LOG.info("{}: writing in sql_mode '{}' ({}{})", job.who(), taken, choice.origin(),
                taken.equals(choice.mode()) ? "" : "; without the modes the target does not know");
        return taken;
    }

    static Choice choose(LoadJob job, DumpMetadata meta) {
        LoadConfig config = job.config;
        for (Map.Entry<String, String> e : config.target().session().entrySet()) {
            if (e.getKey().toLowerCase(Locale.ROOT).equals("sql_mode")) {
                return new Choice(e.getValue(), "as the task's target-database session sets it");
            }
        }
        if (meta != null && meta.sourceSqlMode() != null) {
            return new Choice(SqlModes.replayOf(meta.sourceSqlMode()), "the source's sql_mode '"
                    + meta.sourceSqlMode() + "' as the dump recorded it, made fit for replay");
        }
        String why = meta == null ? "the dump being followed has not written its metadata yet"
                : "the dump did not record it";
        if (config.source() != null) {
            try (Connection c = DataSources.connect(config.source())) {
                String source = SqlModes.global(c);
                return new Choice(SqlModes.replayOf(source), "the source's sql_mode '" + source + "' read from "
                        + config.source().address() + ", made fit for replay; " + why);
            } catch (SQLException e) {
                LOG.warn("{}: cannot read the source's sql_mode from {} ({}); {}", job.who(),
                        config.source().address(), ErrorClassifier.oneLine(e), "writing strict, in jdm's own mode");
                return new Choice(SqlModes.REPLAY, "jdm's own strict mode: the source's sql_mode is not known, "
                        + why + " and the source could not be asked");
            }
        }
        return new Choice(SqlModes.REPLAY, "jdm's own strict mode: the source's sql_mode is not known, " + why
                + " and the task names no source to ask");
    }
}
