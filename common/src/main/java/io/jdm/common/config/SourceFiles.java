package io.jdm.common.config;

import io.jdm.common.config.SourceFileReader.SourceFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The DM source files given with {@code --source}, by source-id. */
final class SourceFiles {
    static final SourceFiles NONE = new SourceFiles(Map.of());

    private final Map<String, SourceFile> byId;

    private SourceFiles(Map<String, SourceFile> byId) {
        this.byId = byId;
    }

    /** Reads every file; problems go to {@code ctx}, each prefixed with the file as it was given. */
    static SourceFiles read(List<Path> files, ReadContext ctx) {
        Map<String, SourceFile> byId = new LinkedHashMap<>();
        for (Path file : files) {
            String written = file.toString();
            Optional<SourceFile> f = SourceFileReader.read(file, written, ctx,
                    why -> ctx.problems().add("--source " + written + ": cannot read: " + why));
            if (f.isEmpty() || f.get().sourceId().isEmpty()) {
                continue;
            }
            SourceFile first = byId.putIfAbsent(f.get().sourceId(), f.get());
            if (first != null) {
                ctx.problems().add("--source " + written + ": source-id \"" + f.get().sourceId()
                        + "\" is also the source-id of " + first.file());
            }
        }
        return new SourceFiles(byId);
    }

    Optional<SourceFile> byId(String sourceId) {
        return Optional.ofNullable(byId.get(sourceId));
    }

    List<String> ids() {
        return new ArrayList<>(byId.keySet());
    }
}
