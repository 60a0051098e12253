package io.jdm.cli;

import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.embedded.SqlServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Task files for the command-line tests: task-mode all over one database of the embedded pair. */
public final class TestTasks {
    private TestTasks() {
    }

    /** Writes {@code dir/task.yaml}: task {@code name}, source-id s1, dump into {@code dir/dump}. */
    public static Path allMode(Path dir, String name, String metaSchema, SqlServer source, SqlServer target, String db)
            throws IOException {
        return allMode(dir, name, metaSchema, source, "root", "", target, db, "threads: 2, rows: 100",
                "pool-size: 2", "worker-count: 4, batch: 20");
    }

    /**
     * As {@link #allMode(Path, String, String, SqlServer, SqlServer, String)}, reading the source as
     * {@code user}, with the given settings of the global mydumper (its dir added), loader and syncer.
     */
    public static Path allMode(Path dir, String name, String metaSchema, SqlServer source, String user,
                               String password, SqlServer target, String db, String mydumper, String loader,
                               String syncer) throws IOException {
        Path f = dir.resolve("task.yaml");
        Files.writeString(f, String.join("\n",
                "name: " + name,
                "task-mode: all",
                "meta-schema: " + metaSchema,
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [\"" + db + "\"]}}",
                "mydumpers: {global: {" + mydumper + ", dir: \"" + dir.resolve("dump") + "\"}}",
                "loaders: {global: {" + loader + "}}",
                "syncers: {global: {" + syncer + "}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: only",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: " + user + ", password: \"" + password
                        + "\"}",
                ""));
        return f;
    }

    /** A task of one source, s1, read and never run: for the endpoint's tests, which reach no server. */
    public static TaskConfig unrun(String name) {
        return new TaskConfigLoader(k -> null).parse(String.join("\n",
                "name: " + name,
                "task-mode: all",
                "target-database: {host: 127.0.0.1, port: 4000, user: root, password: \"\"}",
                "mysql-instances:",
                "  - source-id: s1",
                "    from: {host: 127.0.0.1, port: 3306, user: root, password: \"\"}",
                ""), Path.of("."));
    }
}
