"""The realtime server: Starlette + python-socketio in one ASGI app."""
