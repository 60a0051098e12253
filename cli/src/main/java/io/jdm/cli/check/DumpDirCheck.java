package io.jdm.cli.check;

import io.jdm.common.dumpdir.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether another user could change the dump a task loads: its directory or a file in it writable
 * by the group or by others. The load replays those files into the target, so who may write them
 * may write the target. The same test as the load's warning ({@link OwnerOnly#writableByOthers}),
 * asked before the task runs; a warning, as a shared directory may be meant.
 */
final class DumpDirCheck {
    static final String ITEM = "dump_dir_permission";

    private DumpDirCheck() {
    }

    static CheckResult run(String inst, Path dir) {
        if (!Files.exists(dir)) {
            return CheckResult.pass(ITEM, inst, dir + " does not exist yet; a dump creates it 0700 and its files"
                    + " 0600");
        }
        if (!OwnerOnly.posix(dir)) {
            return CheckResult.pass(ITEM, inst, "cannot tell who may write " + dir + ": its file system has no POSIX"
                    + " permissions");
        }
        List<Path> open;
        try {
            open = OwnerOnly.writableByOthers(dir);
        } catch (IOException e) {
            return CheckResult.warn(ITEM, inst, "cannot read the permissions in " + dir + ": " + e);
        }
        if (open.isEmpty()) {
            return CheckResult.pass(ITEM, inst, dir + " and its files can be written by their owner only");
        }
        return CheckResult.warn(ITEM, inst, "group or others may write " + OwnerOnly.shown(open) + ", so another"
                + " user could change the dump before it is loaded: chmod go-w them (a dump by jdm creates its"
                + " directory 0700 and its files 0600)");
    }
}
