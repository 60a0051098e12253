package io.jdm.verify;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The embedded pair as ConnectionSpecs, plus running SQL and fix files on one or both sides. */
final class VerifyItSupport {
    final ServerPair pair = TestServers.shared();
    final ConnectionSpec source = spec(pair.source());
    final ConnectionSpec target = spec(pair.target());

    static ConnectionSpec spec(SqlServer s) {
        return ConnectionSpec.of(s.host(), s.port(), s.user(), s.password());
    }

    void both(String... sql) throws SQLException {
        run(source, sql);
        run(target, sql);
    }

    void onSource(String... sql) throws SQLException {
        run(source, sql);
    }

    void onTarget(String... sql) throws SQLException {
        run(target, sql);
    }

    static void run(ConnectionSpec spec, String... sql) throws SQLException {
        try (Connection c = DataSources.connect(spec); Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    /** Executes every fix file in {@code dir} on the target; returns how many statements ran. */
    int applyFix(Path dir) throws SQLException, IOException {
        List<String> statements = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".fix.sql")).sorted().toList()) {
                // ValueEncoder escapes newlines, so every statement is one line.
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (!line.isBlank() && !line.startsWith("--")) {
                        statements.add(line);
                    }
                }
            }
        }
        run(target, statements.toArray(String[]::new));
        return statements.size();
    }
}
