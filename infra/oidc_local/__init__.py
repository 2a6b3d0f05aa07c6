"""A local OpenID Connect provider for development and tests (README.md beside this file)."""
