package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.QueryEventData;

/**
 * A QUERY event with what the library's deserializer drops: the session's status variables and
 * the statement as the bytes the source logged. {@link #getSql()} holds those bytes one char per
 * byte (ISO-8859-1), enough to see BEGIN/COMMIT; the statement's text is
 * {@link SourceSessions#text} of the bytes, decoded with the client's charset.
 */
final class QueryEvent extends QueryEventData {
    private final StatusVars status;
    private final byte[] sqlBytes;

    QueryEvent(StatusVars status, byte[] sqlBytes) {
        this.status = status;
        this.sqlBytes = sqlBytes;
    }

    StatusVars status() {
        return status;
    }

    byte[] sqlBytes() {
        return sqlBytes;
    }
}
