package io.jdm.common.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The declared keys of the task file's top level and unit sections, and the key reference that
 * {@code docs/task-file.md} holds between {@link #BEGIN} and {@link #END}, rendered from them (a
 * test keeps the two equal).
 */
public final class TaskKeys {
    public static final String BEGIN = "<!-- keys:begin: generated from the key declarations (TaskKeys.render) -->";
    public static final String END = "<!-- keys:end -->";

    private TaskKeys() {
    }

    /**
     * Section name → its keys in reading order, in the order the task file lists the sections; the top
     * level ({@link TaskKey#TOP_LEVEL}) first.
     */
    public static Map<String, List<TaskKey<?>>> sections() {
        Map<String, List<TaskKey<?>>> m = new LinkedHashMap<>();
        m.put(TaskKey.TOP_LEVEL, TaskRootKeys.ALL);
        m.put("mydumpers", MydumperKeys.ALL);
        m.put("loaders", LoaderKeys.ALL);
        m.put("syncers", SyncerKeys.ALL);
        m.put("validators", ValidatorKeys.ALL);
        return m;
    }

    /**
     * The key reference: one Markdown table per section; the keys jdm ignores, the keys it refuses and
     * the mappings and lists described elsewhere listed after it.
     */
    public static String render() {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, List<TaskKey<?>>> e : sections().entrySet()) {
            boolean top = e.getKey().equals(TaskKey.TOP_LEVEL);
            out.append("\n### ").append(top ? "Top level" : "`" + e.getKey() + "`").append("\n\n");
            out.append("| key | type | default | range | DM's default | what it does |\n");
            out.append("|---|---|---|---|---|---|\n");
            for (TaskKey<?> k : e.getValue()) {
                if (!k.ignored() && !k.refused() && !k.nested()) {
                    out.append("| `").append(k.name()).append("` | ").append(cell(k.type())).append(" | ")
                            .append(cell(k.defText())).append(" | ").append(cell(k.range())).append(" | ")
                            .append(cell(k.dmDefault())).append(" | ").append(cell(k.description())).append(" |\n");
                }
            }
            listed(out, "Read and ignored, with a warning:", e.getValue(), TaskKey::ignored, k -> "");
            listed(out, "Refused unless empty (DM's empty value, as dmctl writes it back, is accepted):",
                    e.getValue(), TaskKey::refused, k -> "");
            listed(out, "Mappings and lists, each described in its own section:", e.getValue(), TaskKey::nested,
                    k -> " (" + k.type() + ")");
        }
        return out.append('\n').toString();
    }

    /** The keys that {@code which} picks, as a list under {@code heading}; nothing when there are none. */
    private static void listed(StringBuilder out, String heading, List<TaskKey<?>> keys,
                               Predicate<TaskKey<?>> which, Function<TaskKey<?>, String> after) {
        List<TaskKey<?>> picked = keys.stream().filter(which).toList();
        if (picked.isEmpty()) {
            return;
        }
        out.append('\n').append(heading).append("\n\n");
        for (TaskKey<?> k : picked) {
            out.append("- `").append(k.name()).append('`').append(after.apply(k)).append(": ")
                    .append(k.description()).append('\n');
        }
    }

    /** Text safe in a table cell: no column breaks, no HTML tags ({@code <task name>}). */
    private static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }
}
