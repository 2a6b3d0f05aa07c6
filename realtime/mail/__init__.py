"""Mail: every message is written to the outbox table first, then delivered.

Delivery is SMTP (aiosmtplib) when SMTP_URL is set: tried after commit, retried by the
deliver-mail job (delivery.py), its state recorded on the outbox row (outcome.py); otherwise
the message is only logged and readable at the dev outbox.
"""
