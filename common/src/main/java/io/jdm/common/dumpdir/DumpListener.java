package io.jdm.common.dumpdir;

import java.util.concurrent.TimeUnit;

/**
 * What a running dump tells about the directory it writes, as it writes it, so a load can start
 * on a file before the dump is over. The dump calls it in this order: a database's and a table's
 * schema file before any data file of that table; a data file only once it is complete, closed
 * under its final name and will not be rewritten; {@link #completed} last, after {@code metadata}.
 * A dump that fails or is stopped never calls {@link #completed}. View files are not announced:
 * views are created after all the data, from the complete directory. A lock-free dump that resumes
 * announces the files its earlier runs finished (and kept) again, after their table's schema file
 * and before that table's other chunks are read: a load that followed the earlier run knows them
 * from its checkpoint.
 */
public interface DumpListener {
    /** For a dump nobody follows. */
    DumpListener NONE = new DumpListener() {
        @Override
        public void schemaWritten(String fileName) {
        }

        @Override
        public boolean dataWritten(FileManifest.Entry file, long timeout, TimeUnit unit) {
            return true;
        }

        @Override
        public void completed(DumpMetadata metadata) {
        }
    };

    /** A {@code {db}-schema-create.sql} or {@code {db}.{tbl}-schema.sql} file is complete. Never waits. */
    void schemaWritten(String fileName);

    /**
     * A data file is complete. Waits while the follower is too far behind; false when it still is
     * after {@code timeout}, and the dump calls again (checking meanwhile whether it must stop).
     */
    boolean dataWritten(FileManifest.Entry file, long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * Every chunk of {@code table} is written: no data file of it is written after this one call,
     * though a file another dump thread wrote may still be announced after it. Never waits.
     */
    default void tableWritten(io.jdm.common.sql.TableName table) {
    }

    /** {@code jdm-files} and {@code metadata} are written: the directory holds a complete dump. */
    void completed(DumpMetadata metadata);
}
