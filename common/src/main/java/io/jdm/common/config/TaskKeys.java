package io.jdm.common.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The declared keys of the task file's unit sections, and the key reference that
 * {@code docs/task-file.md} holds between {@link #BEGIN} and {@link #END}, rendered from them (a
 * test keeps the two equal).
 */
public final class TaskKeys {
    public static final String BEGIN = "<!-- keys:begin: generated from the key declarations (TaskKeys.render) -->";
    public static final String END = "<!-- keys:end -->";

    private TaskKeys() {
    }

    /** Section name → its keys in reading order, in the order the task file lists the sections. */
    public static Map<String, List<TaskKey<?>>> sections() {
        Map<String, List<TaskKey<?>>> m = new LinkedHashMap<>();
        m.put("mydumpers", MydumperKeys.ALL);
        m.put("loaders", LoaderKeys.ALL);
        m.put("syncers", SyncerKeys.ALL);
        m.put("validators", ValidatorKeys.ALL);
        return m;
    }

    /** The key reference: one Markdown table per section, the keys jdm ignores listed after it. */
    public static String render() {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, List<TaskKey<?>>> e : sections().entrySet()) {
            out.append("\n### `").append(e.getKey()).append("`\n\n");
            out.append("| key | type | default | range | DM's default | what it does |\n");
            out.append("|---|---|---|---|---|---|\n");
            for (TaskKey<?> k : e.getValue()) {
                if (!k.ignored()) {
                    out.append("| `").append(k.name()).append("` | ").append(cell(k.type())).append(" | ")
                            .append(cell(k.defText())).append(" | ").append(cell(k.range())).append(" | ")
                            .append(cell(k.dmDefault())).append(" | ").append(cell(k.description())).append(" |\n");
                }
            }
            List<TaskKey<?>> ignored = e.getValue().stream().filter(TaskKey::ignored).toList();
            if (!ignored.isEmpty()) {
                out.append("\nRead and ignored, with a warning:\n\n");
                for (TaskKey<?> k : ignored) {
                    out.append("- `").append(k.name()).append("`: ").append(k.description()).append('\n');
                }
            }
        }
        return out.append('\n').toString();
    }

    /** Text safe in a table cell: no column breaks, no HTML tags ({@code <task name>}). */
    private static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }
}
