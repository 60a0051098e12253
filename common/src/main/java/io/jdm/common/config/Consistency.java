package io.jdm.common.config;

import java.util.Locale;

/**
 * How the dump makes its connections see one point in time ({@code mydumpers.*.consistency}), as
 * Dumpling's {@code consistency} option.
 */
public enum Consistency {
    /**
     * FLUSH on MySQL/MariaDB, falling back to LOCK_FREE when FTWRL is refused (no RELOAD), or to LOCK
     * when a selected table has no key to dump lock-free by; SNAPSHOT on TiDB.
     */
    AUTO,
    /** FLUSH TABLES WITH READ LOCK while every connection opens its snapshot and the position is read. */
    FLUSH,
    /** LOCK TABLES … READ on the selected tables instead of FTWRL (managed MySQL). */
    LOCK,
    /**
     * No FTWRL, no LOCK TABLES, no RELOAD: each chunk is read in its own short snapshot, the binlog
     * position before and after it recorded, and the sync replays from the lowest in safe mode until
     * it passes the highest (see the dump unit's documentation). A dump killed part way resumes.
     */
    LOCK_FREE,
    /** TiDB only: every connection reads at one TSO through {@code tidb_snapshot}. */
    SNAPSHOT,
    /**
     * No lock and no shared snapshot, only for sources nobody writes to; the position is read after
     * the connections open and is marked so.
     */
    NONE;

    /** The lower-case name with dashes ({@code lock-free}), as the task file and the metadata file spell it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The mode a metadata file's {@code Consistency:} line names; empty for another tool's or an unknown one. */
    public static java.util.Optional<Consistency> ofLabel(String label) {
        return label == null ? java.util.Optional.empty() : java.util.Arrays.stream(values())
                .filter(c -> c.label().equalsIgnoreCase(label.strip())).findFirst();
    }

    /**
     * True when a dump taken this way holds every change before its position and none after it, so
     * a sync from there needs no safe mode: the snapshot modes. A lock-free dump's chunks overlap the
     * binlog up to their highest position, which the sync covers with safe mode up to there; AUTO is
     * never what a dump records (it records the mode it fell to); NONE reads the position unlocked.
     */
    public boolean exactPosition() {
        return this == FLUSH || this == LOCK || this == SNAPSHOT || this == LOCK_FREE;
    }
}
