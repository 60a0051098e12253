package io.jdm.load;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Regenerates the committed mydumper fixture ({@code src/test/resources/mydumper/dump}) from
 * {@code source.sql} with the {@code mydumper} binary on the PATH. Not a test: it runs only with
 * {@code -Dtest=MydumperFixtureGenerator -Djdm.regenerate.mydumper=<output dir>}.
 */
class MydumperFixtureGenerator {
    static final String DB = "mydumper_fx";

    @Test
    void generate() throws Exception {
        String out = System.getProperty("jdm.regenerate.mydumper");
        assumeTrue(out != null, "set -Djdm.regenerate.mydumper=<dir> to regenerate the fixture");
        SqlServer source = TestServers.shared().source();
        loadSource(source);
        Path dir = Path.of(out);
        Files.createDirectories(dir);
        Process p = new ProcessBuilder("mydumper", "-h", source.host(), "-P", String.valueOf(source.port()), "-u", "root",
                "-B", DB, "-o", dir.toString(), "-r", "25", "-t", "2", "-v", "3").inheritIO().start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("mydumper failed");
        }
    }

    /** Creates the fixture's source database from {@code source.sql}. */
    static void loadSource(SqlServer source) throws Exception {
        source.freshDatabase(DB);
        String sql = new String(MydumperFixtureGenerator.class.getResourceAsStream("/mydumper/source.sql").readAllBytes(),
                StandardCharsets.UTF_8);
        List<String> statements = new java.util.ArrayList<>();
        statements.add("USE " + DB);
        StatementLexer lx = new StatementLexer(new java.io.ByteArrayInputStream(sql.getBytes(StandardCharsets.UTF_8)));
        StatementLexer.Statement s;
        while ((s = lx.next()) != null) {
            statements.add(new String(s.text(), StandardCharsets.UTF_8));
        }
        try (var c = source.connect(); var st = c.createStatement()) {
            st.execute("SET time_zone = '+00:00'");
            for (String q : statements) {
                st.execute(q);
            }
        }
    }
}
