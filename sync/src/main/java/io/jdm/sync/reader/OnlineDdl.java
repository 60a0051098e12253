package io.jdm.sync.reader;

import io.jdm.common.config.EventType;
import io.jdm.common.sql.TableName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gh-ost and pt-online-schema-change as DM's online-ddl handles them. Their shadow tables
 * ({@code _t_gho} / {@code _t_new} hold the new copy, {@code _t_ghc} is gh-ost's changelog,
 * {@code _t_del} / {@code _t_old} the old table after the swap) never reach the target: DML on
 * them is not replicated, their CREATE/DROP are passed by, and an ALTER of the ghost table is
 * recorded, rewritten to the real table. At the cut-over ({@code RENAME TABLE t TO _t_del,
 * _t_gho TO t}) the recorded ALTERs are what is applied to the real table, once, in place of the
 * swap. Recorded statements live in memory: a restart between the ALTER and the swap reads the
 * ALTER again only if the checkpoint is before it. Reader thread only.
 */
final class OnlineDdl {
    private static final Logger LOG = LoggerFactory.getLogger(OnlineDdl.class);
    private static final Pattern GHOST = Pattern.compile("^_(.+)_(gho|new)$");
    private static final Pattern SHADOW = Pattern.compile("^_(.+)_(gho|new|ghc|del|old)$");

    private final Map<TableName, List<ParsedDdl>> recorded = new HashMap<>();

    /** The real table a shadow table belongs to, or null when {@code t} is not a shadow table. */
    static TableName realOf(TableName t) {
        Matcher m = SHADOW.matcher(t.table());
        return m.matches() ? new TableName(t.schema(), m.group(1)) : null;
    }

    static boolean isShadow(TableName t) {
        return realOf(t) != null;
    }

    private static TableName ghostReal(TableName t) {
        Matcher m = GHOST.matcher(t.table());
        return m.matches() ? new TableName(t.schema(), m.group(1)) : null;
    }

    /** Statements to apply in place of {@code d} (one table's statement, after splitting): usually {@code d}. */
    List<ParsedDdl> translate(ParsedDdl d) {
        if (d.isDatabase() || d.touched().stream().noneMatch(OnlineDdl::isShadow)) {
            return List.of(d);
        }
        TableName primary = d.primary();
        TableName real = ghostReal(primary);
        if (d.kind() == EventType.RENAME_TABLE) {
            TableName to = d.renamedTo();
            if (real != null && real.equals(to)) {
                List<ParsedDdl> ddl = recorded.remove(real);
                LOG.info("sync: online DDL cut-over on {}: applying {} recorded statement(s) in place of the swap",
                        real, ddl == null ? 0 : ddl.size());
                return ddl == null ? List.of() : ddl;
            }
            return List.of(); // real TO _t_del / _t_old: the old copy, never on the target
        }
        if (real != null && (d.kind() == EventType.ALTER_TABLE || d.kind() == EventType.CREATE_INDEX
                || d.kind() == EventType.DROP_INDEX)) {
            String sql = d.rewrite(n -> real, r -> r.role() == ParsedDdl.Role.TABLE && r.name().equals(primary));
            ParsedDdl onReal = DdlParser.parse(primary.schema(), sql, d.dialect(), d.grammar());
            if (onReal != null) {
                recorded.computeIfAbsent(real, k -> new ArrayList<>()).add(onReal);
                LOG.info("sync: online DDL on {} recorded for the cut-over: {}", primary, d.sql());
            }
            return List.of();
        }
        if (real != null && d.kind() == EventType.DROP_TABLE) {
            recorded.remove(real); // the migration was abandoned (or is over): its ALTERs must not apply
        }
        return List.of();
    }
}
