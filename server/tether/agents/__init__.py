"""Agent faces that are not servers: hook commands, rule-file export, one-command set-up."""
