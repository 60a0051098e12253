package io.jdm.common.config;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where an incremental task starts reading the binlog ({@code meta:} of a mysql-instance). Used
 * only when the target holds no sync checkpoint for the task yet.
 */
public record BinlogMeta(Optional<String> binlogName, OptionalLong binlogPos, Optional<String> binlogGtid) {
    public BinlogMeta {
        Objects.requireNonNull(binlogName, "binlogName");
        Objects.requireNonNull(binlogPos, "binlogPos");
        Objects.requireNonNull(binlogGtid, "binlogGtid");
    }
}
