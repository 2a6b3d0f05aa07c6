"""A refused setting at start-up, told without its value.

pydantic's own text of a ValidationError quotes the input (`input_value=...`: every
environment setting, an SMTP password among them), so the start-up prints only each error's
setting name and message (docs/protocol.md, "Production settings").
"""

from pydantic import ValidationError
from pydantic_settings import SettingsError


def refusal_lines(error: ValidationError | SettingsError) -> list[str]:
    """One line per refused setting: `NAME: message`, or `settings: message` for a rule
    over several settings."""
    if isinstance(error, SettingsError):
        return [f"settings: {error}"]  # names the field and the source, not the value
    lines = []
    for item in error.errors(include_url=False, include_context=False, include_input=False):
        name = ".".join(str(part) for part in item["loc"]).upper() or "settings"
        lines.append(f"{name}: {item['msg']}")
    return lines
