package io.jdm.bench;

import io.jdm.common.jdbc.ConnectionSpec;
import java.nio.file.Path;

/** What every sweep shares: the file, both servers, a scratch directory and the recorder. */
record BenchEnv(BenchConfig cfg, ConnectionSpec source, ConnectionSpec target, Path work, Recorder rec) {
}
