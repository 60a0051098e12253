package io.jdm.sync.reader;

import io.jdm.sync.ring.DdlChange;
import io.jdm.sync.ring.RowChange;

/** Where the reader hands decoded changes: the ring. Blocks while the ring is full. */
public interface ChangeSink {
    void row(RowChange change);

    void ddl(DdlChange ddl);
}
