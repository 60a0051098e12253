package io.jdm.sync.reader;

import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.DdlChange;
import io.jdm.sync.ring.RowChange;

/** Where the reader hands decoded changes: the ring. Blocks while the ring is full. */
public interface ChangeSink {
    void row(RowChange change);

    void ddl(DdlChange ddl);

    /**
     * The stream has passed a transaction boundary: every change before {@code boundary} has been
     * handed on and none after it. Lets positions follow the stream while no selected table changes.
     */
    void progress(ChangePos boundary);
}
