package io.jdm.common.config;

/** DM's {@code task-mode}: which units run, in order dump → load → sync. */
public enum TaskMode {
    /** Dump and load a consistent snapshot, then stop. */
    FULL("full"),
    /** Only replicate the binlog, from {@code meta} or the saved checkpoint. */
    INCREMENTAL("incremental"),
    /** Dump, load, then replicate the binlog from the dump's position. */
    ALL("all");

    private final String yamlName;

    TaskMode(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }

    public boolean dumpsAndLoads() {
        return this != INCREMENTAL;
    }

    public boolean syncs() {
        return this != FULL;
    }
}
