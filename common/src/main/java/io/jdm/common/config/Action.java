package io.jdm.common.config;

/** What happens to a binlog event, as an {@code action:} of a filter rule and as a decision. */
public enum Action {
    /** Apply the event. As a rule action: an allow-list for the tables the rule matches. */
    DO("Do"),
    /** Skip the event. */
    IGNORE("Ignore"),
    /** Stop the task with an error naming the event, so a DBA decides. */
    ERROR("Error");

    private final String yamlName;

    Action(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }
}
