"""Mail: every message is written to the outbox table first, then delivered.

Delivery is SMTP (aiosmtplib) when SMTP_URL is set, with retries and the state recorded on
the outbox row; otherwise the message is only logged and readable at the dev outbox.
"""
