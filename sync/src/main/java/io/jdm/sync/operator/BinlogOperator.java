package io.jdm.sync.operator;

import java.util.List;
import java.util.Objects;

/**
 * One operator: what sync does with the statement at {@code file:pos} of one source's binlog,
 * instead of applying it.
 *
 * @param pos where the statement's transaction starts in the binlog (the position a failure line
 *        names), or the statement's own QUERY event
 * @param statements {@link Kind#REPLACE}: what runs on the target instead, in order;
 *        {@link Kind#INJECT}: what runs before it; empty for skip
 * @param sourceStatement the statement the operator was made for, when known (the DDL the target
 *        refused); for {@code binlog list}
 * @param created when it was written, as the target prints it
 * @param applied when sync applied it, as the target prints it; null while it waits
 */
public record BinlogOperator(String sourceId, String file, long pos, Kind kind, List<String> statements,
                             String sourceStatement, String created, String applied) {

    /** What an operator does. */
    public enum Kind {
        /** The statement is not applied; the checkpoint moves past it. */
        SKIP,
        /** Other statements run in its place, in its source session. */
        REPLACE,
        /** Other statements run before it, in its source session; then it is applied as usual. */
        INJECT;

        /** The name the table and the command line use. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static Kind of(String word) {
            return valueOf(word.toUpperCase(java.util.Locale.ROOT));
        }
    }

    public BinlogOperator {
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(kind, "kind");
        statements = statements == null ? List.of() : List.copyOf(statements);
        if (kind != Kind.SKIP && statements.isEmpty()) {
            throw new IllegalArgumentException("a " + kind.word() + " operator needs at least one statement");
        }
    }

    /** A new operator, not yet written. */
    public static BinlogOperator of(String sourceId, String file, long pos, Kind kind, List<String> statements,
                                    String sourceStatement) {
        return new BinlogOperator(sourceId, file, pos, kind, statements, sourceStatement, null, null);
    }

    public boolean done() {
        return applied != null;
    }

    /** {@code file:pos}, as failure lines and {@code --binlog-pos} write it. */
    public String position() {
        return file + ":" + pos;
    }
}
