package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The key declarations ({@link TaskKeys}) against what reads and documents the keys: the readers read
 * exactly the declared keys, {@code docs/task-file.md} holds {@link TaskKeys#render()}, and the
 * {@code conf/} examples show every declared key and no undeclared one.
 */
class TaskKeysDocTest {
    /** Set (-Djdm.regen-docs=true) to rewrite the key reference of docs/task-file.md instead of comparing it. */
    private static final String REGEN = "jdm.regen-docs";
    /** A key of a section entry in conf/: four spaces in, possibly commented out. */
    private static final Pattern ENTRY_KEY = Pattern.compile("^    (?:# ?)?([a-z][a-z0-9-]*):(?:\\s|$)");
    private static final Pattern TOP_KEY = Pattern.compile("^([a-z][a-z0-9-]*):");
    /** A top-level key in conf/, possibly commented out ({@code collation_compatible} has DM's underscore). */
    private static final Pattern ROOT_KEY = Pattern.compile("^(?:# ?)?([a-z][a-z0-9_-]*):(?:\\s|$)");

    @Test
    void readersReadTheDeclaredKeys() {
        assertReads(MydumperKeys.ALL, s -> UnitReaders.mydumper(s, "t"));
        assertReads(LoaderKeys.ALL, s -> UnitReaders.loader(s, Optional.empty()));
        assertReads(SyncerKeys.ALL, UnitReaders::syncer);
        assertReads(ValidatorKeys.ALL, UnitReaders::validator);
    }

    /** An empty task file is full of problems, and the task reader still reads every top-level key. */
    @Test
    void taskReaderReadsTheDeclaredTopLevelKeys() {
        ReadContext ctx = ReadContext.forTask(new ArrayList<>(), new ArrayList<>(), "test", Path.of("."), v -> null);
        Section root = Section.document("{}", ctx).orElseThrow();
        TaskReader.read(root, SourceFiles.NONE);
        assertEquals(List.copyOf(names(TaskRootKeys.ALL)), List.copyOf(root.keysRead()),
                "top-level keys read vs keys declared, in order");
    }

    private static void assertReads(List<TaskKey<?>> declared, Function<Section, ?> reader) {
        Set<String> read = Section.read("{}", Path.of("."), "test", s -> {
            reader.apply(s);
            return new LinkedHashSet<>(s.keysRead());
        });
        assertEquals(names(declared), read, "keys read vs keys declared, in order");
    }

    @Test
    void recordDefaultsAreTheDeclarations() {
        assertEquals(SyncerConfig.defaults(), UnitReaders.syncer(empty()));
        assertEquals(ValidatorConfig.defaults(), UnitReaders.validator(empty()));
        assertEquals(LoaderConfig.defaults(), UnitReaders.loader(empty(), Optional.empty()));
        assertEquals(MydumperConfig.defaults("t"), UnitReaders.mydumper(empty(), "t"));
    }

    private static Section empty() {
        return Section.read("{}", Path.of("."), "test", s -> s);
    }

    @Test
    void taskFileDocHoldsTheRenderedReference() throws IOException {
        Path doc = repoRoot().resolve("docs/task-file.md");
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        int begin = text.indexOf(TaskKeys.BEGIN);
        int end = text.indexOf(TaskKeys.END);
        assertTrue(begin >= 0 && end > begin, "docs/task-file.md must hold the lines " + TaskKeys.BEGIN + " and "
                + TaskKeys.END);
        String inside = text.substring(begin + TaskKeys.BEGIN.length(), end);
        String rendered = "\n" + TaskKeys.render();
        if (Boolean.getBoolean(REGEN)) {
            Files.writeString(doc, text.substring(0, begin + TaskKeys.BEGIN.length()) + rendered + text.substring(end),
                    StandardCharsets.UTF_8);
            return;
        }
        assertEquals(rendered, inside, "docs/task-file.md's key reference differs from the declarations; rewrite it "
                + "with: mvn -o -pl common test -Dtest=TaskKeysDocTest -D" + REGEN + "=true");
    }

    @Test
    void taskAllShowsEveryDeclaredKey() throws IOException {
        Map<String, Set<String>> shown = confKeys(repoRoot().resolve("conf/task-all.yaml"));
        List<String> missing = new ArrayList<>();
        TaskKeys.sections().forEach((section, keys) -> keys.stream()
                .filter(k -> !k.ignored() && !k.refused() && !k.nested())
                .filter(k -> !shown.getOrDefault(section, Set.of()).contains(k.name()))
                .forEach(k -> missing.add(k.toString())));
        assertEquals(List.of(), missing, "declared keys that conf/task-all.yaml does not show (commented out is fine)");
    }

    @Test
    void confExamplesUseDeclaredKeysOnly() throws IOException {
        List<String> undeclared = new ArrayList<>();
        try (Stream<Path> files = Files.list(repoRoot().resolve("conf"))) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("task-")).sorted().toList()) {
                confKeys(file).forEach((section, keys) -> keys.stream()
                        .filter(k -> !names(TaskKeys.sections().get(section)).contains(k))
                        .forEach(k -> undeclared.add(file.getFileName() + ": " + section + ".*." + k)));
            }
        }
        assertEquals(List.of(), undeclared, "keys of the conf/ examples that no declaration names");
    }

    /** Unit section (or the top level) → the keys its entries show, commented out or not. */
    private static Map<String, Set<String>> confKeys(Path file) throws IOException {
        Map<String, Set<String>> out = new java.util.LinkedHashMap<>();
        String section = null;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            Matcher root = ROOT_KEY.matcher(line);
            if (root.find()) {
                out.computeIfAbsent(TaskKey.TOP_LEVEL, s -> new LinkedHashSet<>()).add(root.group(1));
            }
            Matcher top = TOP_KEY.matcher(line);
            if (top.find()) {
                section = TaskKeys.sections().containsKey(top.group(1)) ? top.group(1) : null;
                continue;
            }
            Matcher key = ENTRY_KEY.matcher(line);
            if (section != null && key.find()) {
                out.computeIfAbsent(section, s -> new LinkedHashSet<>()).add(key.group(1));
            }
        }
        return out;
    }

    private static Set<String> names(List<TaskKey<?>> keys) {
        return keys.stream().map(TaskKey::name).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /** The repository root, found from wherever the build runs. */
    private static Path repoRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("docs/task-file.md")) && Files.isDirectory(p.resolve("conf"))) {
                return p;
            }
        }
        throw new IllegalStateException("docs/task-file.md not found above the working directory");
    }
}
