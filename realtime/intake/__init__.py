"""The intake questionnaire: its one definition (definition.json) and server-side validation."""
