"""What users touch: slash commands, buttons and selects, table messages."""
