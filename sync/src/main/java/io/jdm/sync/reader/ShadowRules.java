package io.jdm.sync.reader;

import io.jdm.common.config.OnlineDdlConfig;
import io.jdm.common.sql.TableName;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which tables are an online schema change tool's, by DM's {@code shadow-table-rules} and
 * {@code trash-table-rules}: a rule is found anywhere in the table name (as Go's
 * {@code MatchString}; anchor it with {@code ^…$}), shadow rules first, and its first group is the
 * real table's name. A shadow (ghost) table's ALTERs are recorded for the cut-over; a trash table is
 * never on the target.
 */
final class ShadowRules {
    private final List<Pattern> shadow;
    private final List<Pattern> trash;

    private ShadowRules(List<Pattern> shadow, List<Pattern> trash) {
        this.shadow = shadow;
        this.trash = trash;
    }

    static ShadowRules of(OnlineDdlConfig cfg) {
        return new ShadowRules(cfg.shadowTableRules().stream().map(Pattern::compile).toList(),
                cfg.trashTableRules().stream().map(Pattern::compile).toList());
    }

    /** The real table of a shadow (ghost) table, or null when {@code t} is not one. */
    TableName ghostReal(TableName t) {
        for (Pattern p : shadow) {
            Matcher m = p.matcher(t.table());
            if (m.find()) {
                return new TableName(t.schema(), m.group(1));
            }
        }
        return null;
    }

    /** Whether {@code t} is a shadow or a trash table: its rows and its own DDL never reach the target. */
    boolean isShadow(TableName t) {
        return ghostReal(t) != null || trash.stream().anyMatch(p -> p.matcher(t.table()).find());
    }
}
