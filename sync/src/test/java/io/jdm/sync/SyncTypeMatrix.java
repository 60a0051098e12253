package io.jdm.sync;

import io.jdm.embedded.TypeMatrix;
import java.util.List;

/** The statements that push every value of the shared {@link TypeMatrix} through an UPDATE. */
final class SyncTypeMatrix {
    private SyncTypeMatrix() {
    }

    private static final String SCRATCH = "`typematrixsyncit_scratch`";
    private static final String SET_COLS = "ti, tiu, si, siu, mi, miu, i, iu, bi, biu, dc, dc0, f, d, b1, b10, b64, dt, dtm0, dtm6, ts0, ts6, tm, tm6, yr, c, vc, tx, l1, l1c, bn, vb, bl, en, st, js, g, pt";

    /** Every row takes the values of the next one (5 takes 1's), through a copy outside the selected database. */
    static List<String> rotations(String table) {
        return List.of(
                "DROP DATABASE IF EXISTS " + SCRATCH,
                "CREATE DATABASE " + SCRATCH,
                "CREATE TABLE " + SCRATCH + ".copy LIKE " + table,
                "INSERT INTO " + SCRATCH + ".copy " + TypeMatrix.COLS + " SELECT id, " + SET_COLS + " FROM " + table,
                "UPDATE " + table + " a JOIN " + SCRATCH + ".copy b ON b.id = (a.id % 5) + 1 SET a.ti = b.ti, a.tiu = b.tiu, a.si = b.si, a.siu = b.siu, a.mi = b.mi, a.miu = b.miu, a.i = b.i, a.iu = b.iu, a.bi = b.bi, a.biu = b.biu, a.dc = b.dc, a.dc0 = b.dc0, a.f = b.f, a.d = b.d, a.b1 = b.b1, a.b10 = b.b10, a.b64 = b.b64, a.dt = b.dt, a.dtm0 = b.dtm0, a.dtm6 = b.dtm6, a.ts0 = b.ts0, a.ts6 = b.ts6, a.tm = b.tm, a.tm6 = b.tm6, a.yr = b.yr, a.c = b.c, a.vc = b.vc, a.tx = b.tx, a.l1 = b.l1, a.l1c = b.l1c, a.bn = b.bn, a.vb = b.vb, a.bl = b.bl, a.en = b.en, a.st = b.st, a.js = b.js, a.g = b.g, a.pt = b.pt",
                "DROP DATABASE " + SCRATCH);
    }
}
