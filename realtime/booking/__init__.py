"""Booking rules without transport: free slots, holds, the status state machine."""
