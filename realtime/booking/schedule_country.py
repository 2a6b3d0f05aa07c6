"""The country of a clinic from its timezone, for its public holidays (holidays-suggest).

The IANA database says which country each zone is in (`zone.tab`: one zone, one ISO 3166
code; a zone several countries share, such as Europe/Zurich, is listed under one of them).
Read from the `tzdata` package the server already depends on, so the answer does not
depend on the host's files.
"""

from functools import cache
from importlib.resources import files


@cache
def _zone_countries() -> dict[str, str]:
    table = files("tzdata").joinpath("zoneinfo", "zone.tab").read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for line in table.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        columns = line.split("\t")
        if len(columns) >= 3:
            found[columns[2]] = columns[0]
    return found


def country_of(timezone: str) -> str | None:
    """The ISO 3166 code of the zone's country (JP for Asia/Tokyo), or None (UTC, Etc/...)."""
    return _zone_countries().get(timezone)
