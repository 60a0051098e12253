package io.jdm.common.config;

import java.util.List;
import java.util.regex.Pattern;

/**
 * DM's {@code online-ddl}, {@code shadow-table-rules} and {@code trash-table-rules}: whether sync
 * follows gh-ost and pt-online-schema-change migrations, and how it knows their tables by name. A
 * shadow (ghost) table holds the new copy while the tool fills it, and its ALTERs are what the real
 * table gets at the cut-over; a trash table is the old copy or the tool's own bookkeeping, never on
 * the target. A rule is a regular expression found in the table name (DM's Go {@code MatchString});
 * its first group is the real table's name, which a shadow rule must have. DM's defaults know gh-ost's
 * ({@code _t_gho}, {@code _t_ghc}, {@code _t_del}) and pt-osc's ({@code _t_new}, {@code _t_old})
 * names.
 *
 * @param enabled {@code online-ddl}
 * @param shadowTableRules the rules, each a valid regular expression with at least one group
 * @param trashTableRules the rules, each a valid regular expression
 */
public record OnlineDdlConfig(boolean enabled, List<String> shadowTableRules, List<String> trashTableRules) {
    /** DM's {@code DefaultShadowTableRules}. */
    public static final String DEFAULT_SHADOW_RULE = "^_(.+)_(?:new|gho)$";
    /** DM's {@code DefaultTrashTableRules}. */
    public static final String DEFAULT_TRASH_RULE = "^_(.+)_(?:ghc|del|old)$";
    /** DM follows gh-ost and pt-online-schema-change with its default names unless online-ddl is false. */
    public static final OnlineDdlConfig DEFAULT = new OnlineDdlConfig(true, List.of(DEFAULT_SHADOW_RULE),
            List.of(DEFAULT_TRASH_RULE));
    public static final OnlineDdlConfig OFF = new OnlineDdlConfig(false, DEFAULT.shadowTableRules,
            DEFAULT.trashTableRules);

    public OnlineDdlConfig {
        shadowTableRules = List.copyOf(shadowTableRules);
        trashTableRules = List.copyOf(trashTableRules);
        for (String r : shadowTableRules) {
            if (Pattern.compile(r).matcher("").groupCount() < 1) {
                throw new IllegalArgumentException("shadow-table-rules: " + r + " has no group for the real "
                        + "table's name");
            }
        }
        trashTableRules.forEach(Pattern::compile);
    }
}
