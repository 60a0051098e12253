package io.jdm.load;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.meta.MetaTable;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableEngines;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Rows a target table holds that no load of the task wrote: the user's, or those of a task run
 * before under another name, whose checkpoint this one does not read. Where the table has a primary
 * or NOT NULL unique key, a row of the dump meets such a row on it and {@code on-duplicate} decides,
 * as for any duplicate. Without one nothing tells the two apart, and the load would add the dump's
 * rows beside them: a second copy of every row the earlier task loaded. Such a table stops the load
 * before it writes anything, as Lightning's precheck "target table is not empty" does; a table the
 * task's checkpoint shows begun, by any of its sources (merged shards), holds the task's own rows and
 * the load goes on from its checkpoint.
 *
 * <p>The load asks before it creates any table of a complete dump ({@link SchemaLoader#createTables})
 * and, following a dump being written, as each table arrives ({@link DumpFollower}); {@code jdm check}
 * asks the same before the task runs.
 */
public final class PriorRows {
    /** The most tables one line names. */
    private static final int SHOWN = 5;

    private PriorRows() {
    }

    /**
     * The tables among {@code targets} that are there, have no primary or NOT NULL unique key and
     * hold a row, and into which no load of {@code task} has begun to write (its checkpoint, under
     * {@code metaSchema}).
     *
     * @param routers the routes of each source, by source id: which target table a file in the
     *                checkpoint writes to
     */
    public static List<TableName> keylessHeld(Connection c, String metaSchema, String task,
                                              Function<String, UnaryOperator<TableName>> routers,
                                              Collection<TableName> targets) throws SQLException {
        return keylessHeld(c, metaSchema, task, routers, targets, listing(c));
    }

    /**
     * Like {@link #keylessHeld(Connection, String, String, Function, Collection)}, for a target whose
     * tables were listed by {@link #listing}: a load following a dump asks of one table at a time and
     * lists them once, not once a table (listing a thousand tables costs a MariaDB target about
     * 20 ms).
     */
    static List<TableName> keylessHeld(Connection c, String metaSchema, String task,
                                       Function<String, UnaryOperator<TableName>> routers,
                                       Collection<TableName> targets, Listing listed) throws SQLException {
        List<TableName> candidates = present(listed, targets);
        if (candidates.isEmpty()) {
            return candidates; // a new load into an empty target: no more to ask
        }
        // a resumed load's tables are mostly begun: the checkpoint, read once, spares asking each of them
        Map<String, List<LoaderCheckpoint.Row>> begun = new LoaderCheckpoint(metaSchema, task, "-")
                .begunOfEverySource(c);
        Set<TableName> written = new HashSet<>();
        for (Map.Entry<String, List<LoaderCheckpoint.Row>> e : begun.entrySet()) {
            UnaryOperator<TableName> router = routers.apply(e.getKey());
            for (LoaderCheckpoint.Row r : e.getValue()) {
                TableName target = LoaderCheckpoint.targetOf(r.file(), router);
                if (target != null) {
                    written.add(folded(target));
                }
            }
        }
        candidates.removeIf(t -> written.contains(folded(t)));
        List<TableName> held = new ArrayList<>();
        Set<TableName> keyed = TableEngines.keyed(c, candidates);
        for (TableName t : candidates) {
            if (!keyed.contains(t) && holdsARow(c, t)) {
                held.add(t);
            }
        }
        return held;
    }

    /**
     * What is wrong with {@code held} tables and what to do, in one sentence without its subject's
     * context (the load's or the check's).
     */
    public static String problem(List<TableName> held, String metaSchema, String task) {
        boolean one = held.size() == 1;
        String names = held.stream().limit(SHOWN).map(TableName::quoted).collect(Collectors.joining(", "))
                + (held.size() > SHOWN ? " and " + (held.size() - SHOWN) + " more" : "");
        return (one ? "target table " + names + " holds" : "target tables " + names + " hold") + " rows that no"
                + " load of this task wrote (its checkpoint " + MetaTable.LOADER_CHECKPOINT.of(metaSchema, task)
                .quoted() + " shows none of " + (one ? "its" : "their") + " files begun) and " + (one ? "has" : "have")
                + " no primary or NOT NULL unique key to tell them from the dump's rows (an invisible AUTO_INCREMENT"
                + " key numbers each row anew), which the load would add"
                + " beside them; empty or drop " + (one ? "that table" : "those tables") + " on the target, or run"
                + " the task under the task name whose checkpoint loaded them so that it resumes";
    }

    /**
     * The target's tables by their names folded to lower case: listed once, then asked of for each
     * table a load creates ({@link #require(LoadJob, Connection, Collection, Listing)}) without going
     * through all of them again (a target of 11,000 tables cost 11,000 foldings a table created).
     */
    static final class Listing {
        private final Map<TableName, List<TableName>> byFolded = new HashMap<>();

        Listing(List<TableName> tables) {
            tables.forEach(t -> byFolded.computeIfAbsent(folded(t), k -> new ArrayList<>()).add(t));
        }
    }

    /** The target's tables, to ask {@link #require(LoadJob, Connection, Collection, Listing)} of. */
    static Listing listing(Connection c) throws SQLException {
        return new Listing(SchemaReader.listTables(c, (db, tbl) -> true));
    }

    /** Stops the load with one line when a table among {@code targets} is {@link #keylessHeld}. */
    static void require(LoadJob job, Connection c, Collection<TableName> targets) throws SQLException {
        require(job, c, targets, listing(c));
    }

    /**
     * Like {@link #require(LoadJob, Connection, Collection)} where the target's tables were listed
     * by {@link #listing}: a table created since is one of the load's own.
     */
    static void require(LoadJob job, Connection c, Collection<TableName> targets, Listing listed)
            throws SQLException {
        List<TableName> held = keylessHeld(c, job.config.metaSchema(), job.config.task(), job.config::routerOf,
                targets, listed);
        if (!held.isEmpty()) {
            throw new FatalException(job.who() + ": " + problem(held, job.config.metaSchema(), job.config.task())
                    + "; the load wrote nothing into " + (held.size() == 1 ? "it" : "them"));
        }
    }

    /**
     * The tables of {@code targets} the target has, as it names them: the same name, or the one
     * name that differs from it in case only (a server that folds names to lower case).
     */
    private static List<TableName> present(Listing listed, Collection<TableName> targets) {
        Map<TableName, List<TableName>> wanted = new HashMap<>();
        targets.forEach(t -> wanted.computeIfAbsent(folded(t), k -> new ArrayList<>()).add(t));
        List<TableName> out = new ArrayList<>();
        for (Map.Entry<TableName, List<TableName>> e : wanted.entrySet()) {
            List<TableName> there = listed.byFolded.get(e.getKey());
            if (there == null) {
                continue;
            }
            List<TableName> same = there.stream().filter(e.getValue()::contains).toList();
            out.addAll(!same.isEmpty() ? same : there.size() == 1 ? there : List.of());
        }
        out.sort(null);
        return out;
    }

    private static boolean holdsARow(Connection c, TableName t) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1 FROM " + t.quoted()
                + " LIMIT 1")) {
            return rs.next();
        } catch (SQLException e) {
            if (ErrorClassifier.isNoSuchTable(e) && !ErrorClassifier.isRetriable(e)) {
                return false; // dropped since it was listed
            }
            throw e;
        }
    }

    private static TableName folded(TableName t) {
        return new TableName(t.schema().toLowerCase(Locale.ROOT), t.table().toLowerCase(Locale.ROOT));
    }
}
