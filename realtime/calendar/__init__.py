"""Counselors' private calendar feeds (docs/protocol.md, "Counselor calendar feeds"): the feed
keys (`keys.py`), the feed's content (`feed.py`), the HTTP route that serves it (`serve.py`).
The staff calls that make and rotate keys are realtime/functions/staff_calendar.py."""
