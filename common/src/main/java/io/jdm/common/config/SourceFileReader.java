package io.jdm.common.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.jdm.common.position.Flavor;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A DM source file named by {@code mysql-instances[].source}, read relative to the task file. Its
 * problems are reported as {@code <file as written>: <path>: <message>}.
 */
final class SourceFileReader {
    /** What jdm takes from a DM source file. */
    record SourceFile(Path file, String sourceId, DatabaseConfig from, Optional<Flavor> flavor, Optional<Boolean> enableGtid,
                      OptionalLong serverId) {
    }

    private static final Map<String, Flavor> FLAVORS = Section.names(new Flavor[] {Flavor.MYSQL, Flavor.MARIADB});
    private static final List<String> RELAY_KEYS = List.of("relay-dir", "relay-binlog-name", "relay-binlog-gtid",
            "purge", "checker");

    private SourceFileReader() {
    }

    /** Reads the file under {@code instance.key}; empty when it could not be read at all. */
    static Optional<SourceFile> read(Section instance, String key) {
        String name = instance.requiredText(key);
        if (name.isEmpty()) {
            return Optional.empty();
        }
        String written = instance.written(key);
        Path file = instance.ctx().baseDir().resolve(name);
        String yaml;
        try {
            yaml = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            instance.problem(key, "cannot read " + instance.shown(key) + ": no such file");
            return Optional.empty();
        } catch (CharacterCodingException e) {
            instance.problem(key, "cannot read " + instance.shown(key) + ": not UTF-8 text");
            return Optional.empty();
        } catch (IOException e) {
            instance.problem(key, "cannot read " + instance.shown(key) + ": " + e.getClass().getSimpleName());
            return Optional.empty();
        }
        ReadContext ctx = instance.ctx().forReferencedFile(written, file.toAbsolutePath().getParent());
        JsonNode root = YamlTree.read(yaml, ctx);
        if (root == null) {
            return Optional.empty();
        }
        EnvSubstitution.apply(root, ctx);
        return Section.of(root, "", ctx).map(s -> source(file, s));
    }

    private static SourceFile source(Path file, Section s) {
        var f = new SourceFile(file,
                s.matching("source-id", TaskReader.SOURCE_ID, TaskReader.SOURCE_ID_RULE, null),
                DatabaseReader.required(s, "from"),
                s.optionalChoice("flavor", FLAVORS),
                s.optionalBool("enable-gtid"),
                s.optionalLong("server-id", 1, TaskReader.MAX_SERVER_ID));
        if (s.bool("enable-relay", false)) {
            s.problem("enable-relay", "jdm reads the binlog directly and keeps no relay log; set it to false");
        }
        for (String key : RELAY_KEYS) {
            s.unsupported(key, "a relay-log setting; jdm keeps no relay log, remove it");
        }
        s.unsupported("filters", "put binlog event filters in the task file (filters and filter-rules)");
        s.unsupported("case-sensitive", "set case-sensitive in the task file");
        s.finish();
        return f;
    }
}
