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
import java.util.function.Consumer;

/**
 * A DM source file, named by {@code mysql-instances[].source} (read relative to the task file) or
 * given with {@code --source}. Its problems are reported as {@code <file as written>: <path>: <message>}.
 * DM's relay, checker and purge settings are warnings: jdm reads the binlog itself and keeps no relay log.
 */
final class SourceFileReader {
    /** What jdm takes from a DM source file. */
    record SourceFile(Path file, String sourceId, DatabaseConfig from, Optional<Flavor> flavor, Optional<Boolean> enableGtid,
                      OptionalLong serverId, List<FilterConfig> filters) {
    }

    private static final Map<String, Flavor> FLAVORS = Section.names(new Flavor[] {Flavor.MYSQL, Flavor.MARIADB});
    private static final String NO_RELAY = "jdm reads the binlog directly and keeps no relay log; ignored";
    private static final List<String> RELAY_KEYS = List.of("enable-relay", "relay-dir", "relay-binlog-name",
            "relay-binlog-gtid", "purge", "meta-dir");
    private static final List<String> UNUSED_KEYS = List.of("checker", "tracer", "auto-fix-gtid", "charset");

    private SourceFileReader() {
    }

    /** Reads the file under {@code instance.key}; empty when it could not be read at all. */
    static Optional<SourceFile> read(Section instance, String key) {
        String name = instance.requiredText(key);
        if (name.isEmpty()) {
            return Optional.empty();
        }
        Path file = instance.ctx().baseDir().resolve(name);
        return read(file, instance.written(key), instance.ctx(),
                why -> instance.problem(key, "cannot read " + instance.shown(key) + ": " + why));
    }

    /** Reads {@code file}; its problems are prefixed with {@code written}, a failure to read goes to {@code cannotRead}. */
    static Optional<SourceFile> read(Path file, String written, ReadContext parent, Consumer<String> cannotRead) {
        String yaml;
        try {
            yaml = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            cannotRead.accept("no such file");
            return Optional.empty();
        } catch (CharacterCodingException e) {
            cannotRead.accept("not UTF-8 text");
            return Optional.empty();
        } catch (IOException e) {
            cannotRead.accept(e.getClass().getSimpleName());
            return Optional.empty();
        }
        ReadContext ctx = parent.forReferencedFile(written, file.toAbsolutePath().getParent());
        JsonNode root = YamlTree.read(yaml, ctx);
        if (root == null) {
            return Optional.empty();
        }
        EnvSubstitution.apply(root, ctx);
        return Section.of(root, "", ctx).map(s -> source(file, s));
    }

    private static SourceFile source(Path file, Section s) {
        String sourceId = s.matching("source-id", TaskReader.SOURCE_ID, TaskReader.SOURCE_ID_RULE, null);
        var f = new SourceFile(file,
                sourceId,
                DatabaseReader.required(s, "from"),
                flavor(s),
                s.optionalBool("enable-gtid"),
                s.optionalLong("server-id", 1, TaskReader.MAX_SERVER_ID),
                // DM's binlog event filters of the source: they apply beside the task's filter-rules
                s.list("filters", (i, rule) -> RuleReaders.filter("filters[" + i + "] of the source file of "
                        + sourceId, rule)));
        for (String key : RELAY_KEYS) {
            s.ignored(key, NO_RELAY);
        }
        for (String key : UNUSED_KEYS) {
            s.ignored(key, "a DM source setting jdm does not use; ignored");
        }
        s.ignored("case-sensitive", "jdm reads case-sensitive from the task file; ignored here");
        enable(s);
        s.finish();
        return f;
    }

    /** DM's switch to take a source out of service (dmctl's get-config writes it); true is its default. */
    private static void enable(Section s) {
        Optional<Boolean> enable = s.optionalBool("enable");
        if (enable.isPresent() && !enable.get()) {
            s.problem("enable", "false: DM runs no task on a disabled source; set it true or leave it out");
        } else if (enable.isPresent()) {
            s.warning("enable", "DM's switch for a source; true is the default; ignored");
        }
    }

    /** DM writes {@code flavor: ''} for "detect it"; jdm detects it too. */
    private static Optional<Flavor> flavor(Section s) {
        Optional<String> v = s.text("flavor");
        if (v.isPresent() && v.get().isBlank()) {
            s.warning("flavor", "empty; jdm asks the server which flavor it is");
            return Optional.empty();
        }
        return s.optionalChoice("flavor", FLAVORS);
    }
}
