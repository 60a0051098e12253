package io.jdm.dump;

import com.github.luben.zstd.ZstdInputStream;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.SqlServer;
import io.jdm.common.sql.SqlModes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/** Test-only helpers: load a dump directory into a server by executing its files, and read tables back. */
final class DumpTestSupport {
    private DumpTestSupport() {
    }

    static ConnectionSpec spec(SqlServer s) {
        return ConnectionSpec.of(s.host(), s.port(), s.user(), s.password());
    }

    static Connection open(SqlServer s) throws SQLException {
        return DataSources.connect(spec(s));
    }

    /** Recreates every database of the dump on {@code target} and executes its schema and data files. */
    static void load(Path dir, SqlServer target) throws IOException, SQLException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        try (Connection c = open(target); Statement st = c.createStatement()) {
            st.execute("SET SESSION sql_mode = '" + SqlModes.REPLAY + "'"); // the load's mode, whatever the server's
            for (DumpFileNames.Kind kind : List.of(DumpFileNames.Kind.DATABASE, DumpFileNames.Kind.TABLE,
                    DumpFileNames.Kind.DATA, DumpFileNames.Kind.VIEW)) {
                for (Path f : files) {
                    var parsed = DumpFileNames.parse(f.getFileName().toString());
                    if (parsed.isEmpty() || parsed.get().kind() != kind) {
                        continue;
                    }
                    if (kind == DumpFileNames.Kind.DATABASE) {
                        st.execute("DROP DATABASE IF EXISTS " + Identifiers.quote(parsed.get().schema()));
                    } else {
                        st.execute("USE " + Identifiers.quote(parsed.get().schema()));
                    }
                    for (String sql : split(read(f))) {
                        st.execute(sql);
                    }
                }
            }
        }
    }

    static String read(Path f) throws IOException {
        try (InputStream raw = Files.newInputStream(f);
             InputStream in = f.toString().endsWith(".gz") ? new GZIPInputStream(raw)
                     : f.toString().endsWith(".zst") ? new ZstdInputStream(raw) : raw) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Splits SQL text at semicolons outside quotes, backticks and comments (a tiny lexer, for tests). */
    static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            cur.append(c);
            if (quote != 0) {
                if (c == '\\' && quote != '`' && i + 1 < text.length()) {
                    cur.append(text.charAt(++i));
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '/' && i + 1 < text.length() && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                cur.append(text, i + 1, end + 2);
                i = end + 1;
            } else if (c == ';') {
                String s = cur.substring(0, cur.length() - 1).strip();
                if (!s.isEmpty()) {
                    out.add(s);
                }
                cur.setLength(0);
            }
        }
        if (!cur.toString().isBlank()) {
            throw new IllegalStateException("text does not end with ';': " + cur);
        }
        return out;
    }

    /** Every row of the table ordered by its identity key (or all columns), values in comparable form. */
    static List<List<Object>> rows(SqlServer s, TableName t) throws SQLException {
        try (Connection c = open(s)) {
            TableSchema schema = SchemaReader.read(c, t);
            List<Column> cols = schema.columns();
            List<String> order = schema.hasIdentityKey() ? schema.identityKey()
                    : cols.stream().map(Column::name).toList();
            String orderBy = String.join(",", order.stream().map(Identifiers::quote).toList());
            List<List<Object>> out = new ArrayList<>();
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT " + ResultSetValues.selectList(cols) + " FROM " + t.quoted()
                         + " ORDER BY " + orderBy)) {
                while (rs.next()) {
                    List<Object> row = new ArrayList<>(cols.size());
                    for (int i = 0; i < cols.size(); i++) {
                        Object v = ResultSetValues.read(rs, i + 1, cols.get(i));
                        row.add(v instanceof byte[] b ? "0x" + HexFormat.of().formatHex(b) : v);
                    }
                    out.add(row);
                }
            }
            return out;
        }
    }

    static long checksum(SqlServer s, TableName t) throws SQLException {
        try (Connection c = open(s); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("CHECKSUM TABLE " + t.quoted())) {
            rs.next();
            return rs.getLong(2);
        }
    }

    static List<String> fileNames(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
