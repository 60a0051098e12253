package io.jdm.cli.daemon;

/** What dmctl's pause-task, resume-task and stop-task ask of a running task (DM's {@code pb.TaskOp}). */
public enum TaskOp {
    PAUSE("Pause", "pause"),
    RESUME("Resume", "resume"),
    STOP("Stop", "stop");

    /** The name DM's answer carries in {@code op}. */
    public final String dmName;
    /** The endpoint: {@code POST /tasks/<path>}. */
    public final String path;

    TaskOp(String dmName, String path) {
        this.dmName = dmName;
        this.path = path;
    }
}
