"""The Procfile's commands, read as lists of arguments: the one way a process is started."""

import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def procfile_command(process: str = "web") -> list[str]:
    for line in (ROOT / "Procfile").read_text().splitlines():
        name, _, command = line.partition(":")
        if name.strip() == process:
            return shlex.split(command.strip())
    raise LookupError(f"no {process} line in the Procfile")
