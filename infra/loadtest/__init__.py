"""The load testers' kit: simulated patients and staff over real Socket.IO clients against
any deployment, with a JSON and an HTML report and end-of-run integrity checks
(docs/loadtest.md)."""
