package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.SqlServer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Dump directories of one table {@code t} written by hand, byte by byte, whose statements the
 * source runs as well, so that it holds what they mean; and the load of such a directory.
 */
final class HandDump {
    static final String HEADER = "/*!40101 SET NAMES binary*/;\n/*!40014 SET FOREIGN_KEY_CHECKS=0*/;\n"
            + "/*!40103 SET TIME_ZONE='+00:00' */;\n";

    private HandDump() {
    }

    /**
     * Creates {@code db} on the source with table {@code t} from {@code create} and runs the
     * statements of {@code files} there (in {@code sourceMode} when not null); drops {@code db} on
     * the target; writes the dump directory under {@code tmp}.
     */
    static Path write(SqlServer source, SqlServer target, Path tmp, String sourceMode, String db, String create,
                      byte[]... files) throws Exception {
        source.execute("DROP DATABASE IF EXISTS `" + db + "`", "CREATE DATABASE `" + db + "`");
        target.execute("DROP DATABASE IF EXISTS `" + db + "`");
        try (Connection c = source.connect(); Statement st = c.createStatement()) {
            st.execute("USE `" + db + "`");
            st.execute(create);
            if (sourceMode != null) {
                st.execute("SET SESSION sql_mode = '" + sourceMode + "'");
            }
            for (byte[] f : files) {
                StatementLexer lexer = new StatementLexer(new java.io.ByteArrayInputStream(f));
                StatementLexer.Statement s;
                while ((s = lexer.next()) != null) {
                    st.execute(SqlText.decode(s.text()));
                }
            }
        }
        Path dir = tmp.resolve(db);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(DumpFileNames.databaseSchema(db)), "CREATE DATABASE `" + db + "`;\n");
        Files.writeString(dir.resolve(DumpFileNames.tableSchema(db, "t")), create + ";\n");
        for (int i = 0; i < files.length; i++) {
            Files.write(dir.resolve(DumpFileNames.dataFile(db, "t", i + 1, "")), files[i]);
        }
        new DumpMetadata(LocalDateTime.now(), LocalDateTime.now(), BinlogPosition.of("mysql-bin.000001", 4), null)
                .writeTo(dir);
        return dir;
    }

    /** A one-worker load of {@code dir} into {@code target} as task {@code task}, its checkpoint dropped first. */
    static LoadConfig config(SqlServer target, String task, Path dir) {
        target.execute("CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS jdm_meta." + Identifiers.quote(task + "_loader_checkpoint"));
        return LoadConfig.of(task, "src1", ConnectionSpec.of(target.host(), target.port(), target.user(),
                target.password()), dir).withPoolSize(1);
    }

    /**
     * Loads {@code dir} as task {@code task}: its {@code rows}, in one LOAD DATA that the target
     * takes. A LOAD DATA begun and then rolled back for the statements (which the target's counter
     * counts as well) is told by the load's line saying so.
     */
    static void loadsAsOneLoadData(SqlServer target, String task, Path dir, long rows) throws Exception {
        long loads = comLoad(target);
        List<String> fellBack = fallBacks(() -> {
            LoadResult r = new LoadUnit(config(target, task, dir)).run();
            assertTrue(r.completed());
            assertEquals(rows, r.rows());
        });
        assertEquals(1, comLoad(target) - loads, "the files load as one LOAD DATA");
        assertEquals(List.of(), fellBack, "LOAD DATA took every row");
    }

    /** What {@code load} does. */
    interface Load {
        void run() throws Exception;
    }

    /** Runs {@code load}; returns the lines of each LOAD DATA group it sent by statements, saying why. */
    static List<String> fallBacks(Load load) throws Exception {
        Logger log = (Logger) LoggerFactory.getLogger(BulkLoader.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        log.addAppender(lines);
        try {
            load.run();
        } finally {
            log.detachAppender(lines);
        }
        return lines.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains("statement by statement")).toList();
    }

    static long comLoad(SqlServer target) throws Exception {
        // SHOW GLOBAL STATUS: MySQL 8.0 has no information_schema.GLOBAL_STATUS, 5.7 hides it by default
        return Long.parseLong(target.rows("SHOW GLOBAL STATUS LIKE 'Com_load'").get(0).split("\\|")[1]);
    }

    /** Source and target tables {@code db.t} hold the same rows, byte by byte in every column. */
    static void assertSameAsSource(SqlServer source, SqlServer target, String db) throws Exception {
        TableName t = new TableName(db, "t");
        try (Connection s = source.connect(); Connection c = target.connect()) {
            TestData.assertSameRows(s, t, c, t);
        }
    }

    static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            out.writeBytes(p instanceof byte[] b ? b : ((String) p).getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }
}
