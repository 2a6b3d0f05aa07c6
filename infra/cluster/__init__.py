"""`python -m infra.cluster`: N `web` nodes behind HAProxy, as a deployment runs them
(docs/operations.md, "A cluster")."""
