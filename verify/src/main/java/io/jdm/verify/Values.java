package io.jdm.verify;

import io.jdm.common.schema.Column;
import io.jdm.common.sql.ValueEncoder;

/** How verify's report shows a canonical value; equality and order are {@link io.jdm.common.sql.CanonicalValues}'. */
final class Values {
    private Values() {
    }

    /** The SQL literal of a value for the report, shortened; a {@link TypedJson} with its types. */
    static String show(Column c, Object v) {
        if (v instanceof TypedJson t) {
            return t.show();
        }
        String s = ValueEncoder.encode(c, v);
        return s.length() > 64 ? s.substring(0, 61) + "..." : s;
    }
}
