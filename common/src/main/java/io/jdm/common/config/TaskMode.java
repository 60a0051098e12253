package io.jdm.common.config;

/** DM's {@code task-mode}: which units run, in order dump → load → sync. */
public enum TaskMode {
    /** Dump and load a consistent snapshot, then stop. */
    FULL("full", true, true, false),
    /** Only replicate the binlog, from {@code meta} or the saved checkpoint. */
    INCREMENTAL("incremental", false, false, true),
    /** Dump, load, then replicate the binlog from the dump's position. */
    ALL("all", true, true, true),
    /** Only dump a consistent snapshot. */
    DUMP("dump", true, false, false),
    /** Only load a dump already in the dump directory. */
    LOAD("load", false, true, false),
    /** Load a dump already in the dump directory, then replicate the binlog from the position it records. */
    LOAD_SYNC("load&sync", false, true, true);

    private final String yamlName;
    private final boolean dumps;
    private final boolean loads;
    private final boolean syncs;

    TaskMode(String yamlName, boolean dumps, boolean loads, boolean syncs) {
        this.yamlName = yamlName;
        this.dumps = dumps;
        this.loads = loads;
        this.syncs = syncs;
    }

    public String yamlName() {
        return yamlName;
    }

    public boolean dumps() {
        return dumps;
    }

    public boolean loads() {
        return loads;
    }

    /** True when the load reads what this task's own dump wrote (full and all). */
    public boolean dumpsAndLoads() {
        return dumps && loads;
    }

    /** True when a dump or a load runs, so sync (if any) starts from the position the dump recorded. */
    public boolean dumpsOrLoads() {
        return dumps || loads;
    }

    public boolean syncs() {
        return syncs;
    }
}
