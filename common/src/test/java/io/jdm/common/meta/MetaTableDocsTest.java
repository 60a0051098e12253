package io.jdm.common.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The meta tables docs/operations.md lists are the ones jdm keeps, with what each holds. */
class MetaTableDocsTest {
    private static final Pattern ROW = Pattern.compile("^\\| `\\{task}_([a-z_]+)` \\| (.+) \\|$", Pattern.MULTILINE);

    @Test
    void theDocumentedListIsMetaTable() throws Exception {
        String doc = Files.readString(Path.of("../docs/operations.md"));
        Map<String, String> documented = new LinkedHashMap<>();
        Matcher m = ROW.matcher(doc);
        while (m.find()) {
            documented.put(m.group(1), m.group(2));
        }
        Map<String, String> kept = new LinkedHashMap<>();
        Arrays.stream(MetaTable.values()).forEach(t -> kept.put(t.suffix(), t.holds()));
        assertEquals(kept, documented);
    }

    @Test
    void everyNameFitsTheTargetsLimitForTheLongestTaskName() {
        String task = "t".repeat(46); // TaskReader's limit for a task name
        for (MetaTable t : MetaTable.values()) {
            assertEquals(true, t.of("m", task).table().length() <= 64, t.name());
        }
    }
}
