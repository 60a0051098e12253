package io.jdm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.TableName;
import io.jdm.sync.shard.GroupDdl;
import io.jdm.sync.shard.ShardStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * DM's {@code dmctl shard-ddl-lock}: the group DDL locks of a task in shard-mode pessimistic, read
 * from the target's meta schema (where every process of the task keeps them), and {@code unlock}
 * to resolve one by hand.
 */
@Command(name = "shard-ddl-lock", mixinStandardHelpOptions = true,
        subcommands = ShardLockCommand.Unlock.class,
        description = "List the shard DDL locks of a task in shard-mode pessimistic (as dmctl shard-ddl-lock): "
                + "each group DDL not yet run on the target, with the shards that have reached it (synced) and "
                + "those that have not (unsynced).")
final class ShardLockCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "TASK.yaml", description = "The task file.")
    Path taskFile;

    @Mixin
    SourceOptions sources = new SourceOptions();

    @Option(names = "--all", description = "Also list the locks whose DDL already ran.")
    boolean all;

    @Override
    public Integer call() throws Exception {
        if (taskFile == null) {
            throw new UsageError("shard-ddl-lock: give the task file: jdm shard-ddl-lock TASK.yaml, or "
                    + "jdm shard-ddl-lock unlock TASK.yaml LOCK-ID");
        }
        TaskConfig task = TaskFiles.load(taskFile, sources);
        ShardStore store = new ShardStore(task.metaSchema(), task.name());
        List<Map<String, Object>> locks = new ArrayList<>();
        try (Connection c = DataSources.connect(task.targetDatabase().toConnectionSpec())) {
            List<ShardStore.Member> members = store.members(c, null);
            List<ShardStore.Arrival> arrivals = store.arrivals(c, null);
            for (ShardStore.Lock l : store.locks(c)) {
                if (!all && ShardStore.DONE.equals(l.state())) {
                    continue;
                }
                List<String> synced = new ArrayList<>();
                List<String> unsynced = new ArrayList<>();
                for (ShardStore.Member m : members) {
                    if (!m.target().equals(l.target())) {
                        continue;
                    }
                    boolean arrived = arrivals.stream().anyMatch(a -> a.seq() == l.seq() && a.target().equals(l.target())
                            && a.sourceId().equals(m.sourceId()) && a.shard().equals(m.shard()));
                    (arrived ? synced : unsynced).add(m.sourceId() + "-" + m.shard().quoted());
                }
                Map<String, Object> lock = new LinkedHashMap<>();
                lock.put("ID", lockId(task.name(), l.target()));
                lock.put("task", task.name());
                lock.put("mode", "pessimistic");
                lock.put("seq", l.seq());
                lock.put("state", l.state());
                lock.put("owner", l.firstShard());
                lock.put("DDLs", List.of(l.ddl()));
                lock.put("synced", synced);
                lock.put("unsynced", unsynced);
                locks.add(lock);
            }
        } catch (SQLException e) {
            if (!ErrorClassifier.isNoSuchTableOrDatabase(e)) { // no lock tables yet: no shard DDL has been seen
                throw ErrorClassifier.wrap("shard-ddl-lock: cannot read the locks of task " + task.name() + " in "
                        + task.metaSchema() + " on the target", e);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("result", true);
        out.put("msg", "");
        out.put("locks", locks);
        System.out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(out));
        return ExitCode.OK;
    }

    /** DM's lock id: the task and the target table, {@code task-`db`.`table`}. */
    static String lockId(String task, TableName target) {
        return task + "-" + target.quoted();
    }

    @Command(name = "unlock", mixinStandardHelpOptions = true,
            description = "Resolve a shard DDL lock by hand (as dmctl shard-ddl-lock unlock): the oldest group DDL "
                    + "of the lock's target table not yet run is run on the target now (--action exec, the default) "
                    + "or marked as run without running it (--action skip). Shards that reached it write their "
                    + "waiting rows to the target; shards that reach it later pass it.")
    static final class Unlock implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "TASK.yaml", description = "The task file.")
        Path taskFile;

        @Parameters(index = "1", paramLabel = "LOCK-ID", description = "The lock's ID as shard-ddl-lock lists it.")
        String lockId;

        @Option(names = "--action", defaultValue = "exec", description = "exec (default) or skip.")
        String action;

        @Mixin
        SourceOptions sources = new SourceOptions();

        @Override
        public Integer call() throws Exception {
            if (!action.equals("exec") && !action.equals("skip")) {
                throw new UsageError("--action: must be exec or skip, got " + action);
            }
            TaskConfig task = TaskFiles.load(taskFile, sources);
            ShardStore store = new ShardStore(task.metaSchema(), task.name());
            ConnectionSpec target = task.targetDatabase().toConnectionSpec();
            try (Connection c = DataSources.connect(target)) {
                store.ensureTables(c);
                ShardStore.Lock lock = store.locks(c).stream()
                        .filter(l -> lockId(task.name(), l.target()).equals(lockId) && !ShardStore.DONE.equals(l.state()))
                        .findFirst().orElseThrow(() -> new UsageError("shard-ddl-lock unlock: task " + task.name()
                                + " has no lock " + lockId + " waiting; list them with jdm shard-ddl-lock "
                                + taskFile));
                c.setAutoCommit(false);
                ShardStore.Lock held = store.lock(c, lock.target(), lock.seq(), true);
                if (!ShardStore.WAITING.equals(held.state())) {
                    c.rollback();
                    throw new FatalException("shard-ddl-lock unlock: group DDL " + held.seq() + " of " + held.target()
                            + " is " + held.state() + " (by " + held.executor() + "); nothing to unlock");
                }
                store.setState(c, held.target(), held.seq(), ShardStore.EXECUTING, "unlock", null);
                c.commit();
                c.setAutoCommit(true);
                if (action.equals("exec")) {
                    try {
                        GroupDdl.run(c, held, false);
                    } catch (SQLException | RuntimeException e) {
                        store.setState(c, held.target(), held.seq(), ShardStore.WAITING, null, null); // as it was
                        throw e;
                    }
                }
                c.setAutoCommit(false);
                store.setState(c, held.target(), held.seq(), ShardStore.DONE, "unlock", null);
                c.commit();
                System.out.println("shard-ddl-lock unlock: group DDL " + held.seq() + " of " + held.target() + " "
                        + (action.equals("exec") ? "ran on the target" : "marked as run (skipped)") + ": "
                        + held.ddl());
            } catch (SQLException e) {
                throw ErrorClassifier.wrap("shard-ddl-lock unlock: " + lockId + " of task " + task.name(), e);
            }
            return ExitCode.OK;
        }
    }
}
