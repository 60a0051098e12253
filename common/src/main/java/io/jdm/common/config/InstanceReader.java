package io.jdm.common.config;

import io.jdm.common.config.SourceFileReader.SourceFile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.regex.Pattern;

/** {@code mysql-instances:}, with every name it uses checked against the task's maps. */
final class InstanceReader {
    private static final Pattern BINLOG_NAME = Pattern.compile("[^/\\\\]+\\.\\d+");

    private final TaskReader.Rules rules;
    private final TaskMode mode;
    private final SourceFiles sources;
    private final String taskName;
    private final Optional<String> dmDirSuffix;
    private final Map<String, Integer> seenIds = new HashMap<>();

    /** {@code taskName} and {@code dmDirSuffix} read an instance's own unit settings as the named ones are read. */
    InstanceReader(TaskReader.Rules rules, TaskMode mode, SourceFiles sources, String taskName,
                   Optional<String> dmDirSuffix) {
        this.rules = rules;
        this.mode = mode;
        this.sources = sources;
        this.taskName = taskName;
        this.dmDirSuffix = dmDirSuffix;
    }

    List<MySqlInstance> readAll(Section root) {
        String key = TaskRootKeys.MYSQL_INSTANCES.name();
        List<MySqlInstance> all = root.list(key, this::instance);
        if (!root.has(key)) {
            root.problem(key, "required");
        } else if (all.isEmpty() && root.isList(key)) {
            root.problem(key, "must list at least one source");
        }
        return all;
    }

    private MySqlInstance instance(int index, Section s) {
        Optional<String> id = s.optionalMatching("source-id", TaskReader.SOURCE_ID, TaskReader.SOURCE_ID_RULE);
        boolean inline = s.has("from");
        boolean viaFile = s.has("source");
        Optional<SourceFile> given = inline || viaFile ? Optional.empty() : id.flatMap(sources::byId);
        if (inline && viaFile) {
            s.problem("has both from and source; keep one");
        } else if (!inline && !viaFile && given.isEmpty()) {
            s.problem(id.isEmpty() ? "needs from (the connection) or source (a DM source file)"
                    : "needs from (the connection), source (a DM source file) or --source with a file whose "
                    + "source-id is " + s.shown("source-id") + " (given: " + String.join(", ", given(sources)) + ")");
        }
        DatabaseConfig from = inline ? DatabaseReader.required(s, "from") : null;
        Optional<SourceFile> file = viaFile ? SourceFileReader.read(s, "source") : given;
        String sourceId = sourceId(s, id, file, !viaFile && given.isEmpty());
        checkUnique(index, s, sourceId);
        OptionalLong serverId = serverId(s, file);
        Optional<BinlogMeta> meta = meta(s);
        Optional<String> blockAllowList = blockAllowList(s);
        List<String> routes = references(s, "route-rules", rules.routes(), "route rule");
        List<String> filters = references(s, "filter-rules", rules.filters(), "filter rule");
        List<String> expressionFilters = references(s, "expression-filters", rules.expressionFilters(),
                "expression filter");
        Optional<String> mydumperName = reference(s, "mydumper-config-name", rules.mydumpers(), "mydumper config");
        Optional<MydumperConfig> mydumper = own(s, "mydumper", mydumperName, u -> UnitReaders.mydumper(u, taskName));
        Optional<String> loaderName = reference(s, "loader-config-name", rules.loaders(), "loader config");
        Optional<LoaderConfig> loader = own(s, "loader", loaderName, u -> UnitReaders.loader(u, dirSuffix(mydumper)));
        Optional<String> syncerName = reference(s, "syncer-config-name", rules.syncers(), "syncer config");
        Optional<SyncerConfig> syncer = own(s, "syncer", syncerName, UnitReaders::syncer);
        ValidatorConfig validator = reference(s, "validator-config-name", rules.validators(), "validator config")
                .map(n -> rules.validators().getOrDefault(n, ValidatorConfig.defaults()))
                .orElse(ValidatorConfig.defaults());
        var instance = new MySqlInstance(sourceId,
                from != null ? from : file.map(SourceFile::from).orElse(placeholder()),
                file.map(SourceFile::file), file.flatMap(SourceFile::flavor), file.flatMap(SourceFile::enableGtid),
                serverId, meta, blockAllowList, routes, filters, expressionFilters,
                mydumperName, mydumper, loaderName, loader, syncerName, syncer,
                threads(s, "mydumper-thread"), threads(s, "loader-thread"), threads(s, "syncer-thread"),
                file.map(SourceFile::filters).orElse(List.of()), validator);
        refuseDmOnlyKeys(s);
        s.finish();
        return instance;
    }

    private static String sourceId(Section s, Optional<String> id, Optional<SourceFile> file, boolean required) {
        if (file.isPresent()) {
            String fromFile = file.get().sourceId();
            if (s.has("source") && id.isPresent() && !fromFile.isEmpty() && !id.get().equals(fromFile)) {
                s.problem("source-id", s.shown("source-id") + " differs from the source-id in " + s.written("source"));
            }
            return id.orElse(fromFile);
        }
        if (id.isEmpty() && required && !s.has("source-id")) {
            s.problem("source-id", "required");
        }
        return id.orElse("");
    }

    private void checkUnique(int index, Section s, String sourceId) {
        if (sourceId.isEmpty()) {
            return;
        }
        Integer first = seenIds.putIfAbsent(sourceId, index);
        if (first != null) {
            String shown = s.has("source-id") ? s.shown("source-id") : "\"" + sourceId + "\"";
            s.problem("source-id", "duplicate " + shown + " (also mysql-instances[" + first + "])");
        }
    }

    private static OptionalLong serverId(Section s, Optional<SourceFile> file) {
        OptionalLong own = s.optionalLong("server-id", 1, TaskReader.MAX_SERVER_ID);
        OptionalLong inFile = file.map(SourceFile::serverId).orElse(OptionalLong.empty());
        if (own.isPresent() && inFile.isPresent() && own.getAsLong() != inFile.getAsLong()) {
            s.problem("server-id", "differs from the server-id in "
                    + (s.has("source") ? s.written("source") : file.get().file().toString()));
        }
        return own.isPresent() ? own : inFile;
    }

    private Optional<BinlogMeta> meta(Section instance) {
        Optional<Section> section = instance.section("meta");
        if (section.isEmpty()) {
            return Optional.empty();
        }
        Section s = section.get();
        var meta = new BinlogMeta(
                s.optionalMatching("binlog-name", BINLOG_NAME, "look like mysql-bin.000001"),
                s.optionalLong("binlog-pos", 4, TaskReader.MAX_SERVER_ID),
                s.optionalText("binlog-gtid"));
        boolean name = s.has("binlog-name");
        if (s.has("binlog-pos") && !name) {
            s.problem("binlog-pos", "needs binlog-name");
        }
        if (name && !s.has("binlog-pos")) {
            s.problem("binlog-pos", "required with binlog-name");
        }
        if (!name && !s.has("binlog-pos") && !s.has("binlog-gtid")) {
            s.problem("needs binlog-name and binlog-pos, or binlog-gtid");
        }
        s.finish();
        if (mode != null && mode.dumpsOrLoads()) {
            instance.warning("meta", "ignored in task-mode " + mode.yamlName() + ", which starts from the position "
                    + "the dump records (as in DM)");
        }
        return Optional.of(meta);
    }

    /** DM still reads its pre-2.0 name, black-white-list, where block-allow-list is empty. */
    private Optional<String> blockAllowList(Section s) {
        boolean old = s.optionalText("black-white-list").isPresent();
        if (old && s.optionalText("block-allow-list").isPresent()) {
            s.warning("black-white-list", DmKeys.OLD_BLOCK_ALLOW_LIST_IGNORED);
        } else if (old) {
            s.warning("black-white-list", DmKeys.OLD_BLOCK_ALLOW_LIST);
            return reference(s, "black-white-list", rules.blockAllowList(), "rule set");
        }
        return reference(s, "block-allow-list", rules.blockAllowList(), "rule set");
    }

    /**
     * DM's inline form: the instance's own {@code mydumper:}, {@code loader:} or {@code syncer:}, read
     * as an entry of the named map is read. DM uses it when the matching config name is empty and
     * refuses both; {@code null}, as dmctl writes it, is not set.
     */
    private static <T> Optional<T> own(Section s, String unit, Optional<String> name, Function<Section, T> reader) {
        if (s.has(unit) && name.isPresent()) {
            s.problem(unit, "and " + unit + "-config-name both give this instance's " + unit + " settings; keep one");
            return Optional.empty();
        }
        return s.section(unit).map(reader);
    }

    /** An own loader's dir is DM's dump location too, unless the instance's own mydumper sets a dir. */
    private Optional<String> dirSuffix(Optional<MydumperConfig> ownMydumper) {
        boolean dmLayout = ownMydumper.map(d -> d.dir().equals(MydumperConfig.defaultDir(taskName))).orElse(true);
        return dmLayout ? dmDirSuffix : Optional.empty();
    }

    private static Optional<String> reference(Section s, String key, Map<String, ?> defined, String kind) {
        Optional<String> name = s.optionalText(key);
        if (name.isPresent() && !defined.containsKey(name.get())) {
            s.problem(key, undefined(kind, s.shown(key), defined));
        }
        return name;
    }

    private static List<String> references(Section s, String key, Map<String, ?> defined, String kind) {
        List<String> names = s.texts(key);
        for (int i = 0; i < names.size(); i++) {
            if (!defined.containsKey(names.get(i))) {
                s.problem(key + "[" + i + "]", undefined(kind, s.shown(key, i), defined));
            }
        }
        return new ArrayList<>(names);
    }

    private static List<String> given(SourceFiles sources) {
        return sources.ids().isEmpty() ? List.of("none") : sources.ids();
    }

    private static String undefined(String kind, String shown, Map<String, ?> defined) {
        return "undefined " + kind + " " + shown + " (defined: " + String.join(", ", TaskReader.definedNames(defined))
                + ")";
    }

    private static OptionalInt threads(Section s, String key) {
        return s.optionalThreads(key, TaskKey.MAX_THREADS);
    }

    private static void refuseDmOnlyKeys(Section s) {
        s.unsupportedUnlessEmpty("column-mapping-rules", "column mapping is not supported by jdm; remove it");
        s.unsupportedUnlessEmpty("continuous-validator-config-name", DmKeys.NO_VALIDATOR);
    }

    private static DatabaseConfig placeholder() {
        return DatabaseConfig.of("", DatabaseConfig.DEFAULT_PORT, "", Secret.EMPTY);
    }
}
