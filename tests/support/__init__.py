"""Test support: real server processes and real HTTP / Socket.IO clients."""
