package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MalformedYamlTest {
    @TempDir
    Path dir;

    @Test
    void reportsFileLineAndColumn() throws IOException {
        Path file = write("task.yaml", "name: t1\ntask-mode: all\n  target-database: x\n");
        assertEquals(List.of("task.yaml:3:18: malformed YAML: mapping values are not allowed here"), problems(file));
    }

    @Test
    void reportsWhereAnUnterminatedConstructStarted() throws IOException {
        Path file = write("task.yaml", "name: t1\nblock-allow-list:\n  bw:\n    do-dbs: [a, b\ntask-mode: all\n");
        String p = single(file);
        assertTrue(p.startsWith("task.yaml:5:10: malformed YAML: expected ',' or ']', but got :"), p);
        assertTrue(p.endsWith("(while parsing a flow sequence that starts at 4:13)"), p);
    }

    @Test
    void tabsInIndentation() throws IOException {
        Path file = write("task.yaml", "name: t1\ntarget-database:\n\thost: x\n");
        String p = single(file);
        assertTrue(p.startsWith("task.yaml:3:1: malformed YAML: found character '\\t(TAB)' that cannot start"), p);
    }

    @Test
    void moreThanOneDocument() throws IOException {
        Path file = write("two.yaml", Tasks.MINIMAL + "---\n" + Tasks.MINIMAL);
        assertEquals(List.of("two.yaml: holds more than one YAML document; keep one task per file"), problems(file));
    }

    @Test
    void missingFile() {
        Path file = dir.resolve("nope.yaml");
        assertEquals(List.of("cannot read " + file + ": no such file"), problems(file));
    }

    @Test
    void inMemoryTextIsCalledByTheGivenName() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> new TaskConfigLoader(Map.<String, String>of()::get).parse("a: [", dir, "inline.yaml"));
        assertTrue(e.problems().get(0).startsWith("inline.yaml:1:5: malformed YAML: "), e.getMessage());
    }

    private String single(Path file) {
        List<String> p = problems(file);
        assertEquals(1, p.size(), p.toString());
        return p.get(0);
    }

    private static List<String> problems(Path file) {
        return assertThrows(ConfigException.class,
                () -> new TaskConfigLoader(Map.<String, String>of()::get).load(file)).problems();
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }
}
