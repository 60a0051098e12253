package io.jdm.common.schema;

import java.util.function.BiPredicate;

/**
 * A selection of tables that can also tell a schema none of whose tables it selects, so that a
 * listing asks the server about the selected schemas only: on a server of many schemas, listing
 * every table costs it an open of every table's definition (MariaDB 11.4, 16,000 tables: 0.29 s of
 * its CPU for each listing, 0.01 s for one schema of 1,000).
 */
public interface SchemaScope extends BiPredicate<String, String> {
    /** False only when no table of {@code schema} is selected. */
    boolean mayHoldSelected(String schema);
}
