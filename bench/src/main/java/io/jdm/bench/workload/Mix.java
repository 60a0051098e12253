package io.jdm.bench.workload;

/** The transaction mixes of sysbench's OLTP scripts that write. */
public enum Mix {
    /** One INSERT per transaction. */
    OLTP_INSERT,
    /** Per transaction: an index update, a non-index update, a delete and a re-insert of the same id. */
    OLTP_WRITE_ONLY,
    /** OLTP_WRITE_ONLY plus ten point selects and range reads (reads do not reach the binlog). */
    OLTP_READ_WRITE;

    public static Mix parse(String s) {
        return valueOf(s.trim().toUpperCase().replace('-', '_'));
    }
}
