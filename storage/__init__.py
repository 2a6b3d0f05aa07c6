"""Storage: SQLModel tables, engines and sessions for SQLite and PostgreSQL, migrations."""
