package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * QUERY: the post-header (thread id, exec time, database length, error code, status length), the
 * status variables decoded by {@link StatusVars}, the default database (NUL-terminated, in the
 * server's utf8 system charset) and the statement, kept as bytes: which charset they are in is
 * one of the status variables.
 */
final class QueryEventDeserializer implements EventDataDeserializer<QueryEvent> {
    @Override
    public QueryEvent deserialize(ByteArrayInputStream in) throws IOException {
        long threadId = in.readLong(4);
        long execTime = in.readLong(4);
        int dbLength = in.readInteger(1);
        int errorCode = in.readInteger(2);
        int statusLength = in.readInteger(2);
        StatusVars status = StatusVars.decode(in.read(statusLength), 0, statusLength);
        String db = new String(in.read(dbLength), StandardCharsets.UTF_8);
        in.readInteger(1); // the NUL after the database name
        byte[] sql = in.read(in.available());
        QueryEvent e = new QueryEvent(status, sql);
        e.setThreadId(threadId);
        e.setExecutionTime(execTime);
        e.setErrorCode(errorCode);
        e.setDatabase(db);
        e.setSql(new String(sql, StandardCharsets.ISO_8859_1));
        return e;
    }
}
