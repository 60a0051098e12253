package io.jdm.bench;

import io.jdm.common.sql.Identifiers;
import java.sql.SQLException;

/**
 * The database on the target a sweep copies the bench's database into, afresh for each sample:
 * emptied before, compared with the source (CHECKSUM TABLE of every table) after.
 */
record CopyDb(BenchEnv env, String name) {
    /** Drops the copy. */
    void drop() throws SQLException {
        exec("DROP DATABASE IF EXISTS " + Identifiers.quote(name));
    }

    /** Fails naming {@code who} unless every table of the copy equals the source's. */
    void check(String who) throws SQLException {
        Checksums.assertSame(env.source(), env.cfg().database(), env.target(), name, env.cfg().tables(), who);
    }

    /** Runs statements on the target. */
    void exec(String... sql) throws SQLException {
        Tools.execute(env.target(), sql);
    }
}
