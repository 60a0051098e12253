package io.jdm.cli.run;

/**
 * DM's subtask stages ({@code pb.Stage}): the name {@code /status} prints, the number
 * {@code dm_worker_task_state} carries.
 */
enum DmStage {
    NEW(1, "New"),
    RUNNING(2, "Running"),
    PAUSED(3, "Paused"),
    STOPPED(4, "Stopped"),
    FINISHED(5, "Finished"),
    STOPPING(8, "Stopping");

    final int number;
    final String dmName;

    DmStage(int number, String dmName) {
        this.number = number;
        this.dmName = dmName;
    }
}
