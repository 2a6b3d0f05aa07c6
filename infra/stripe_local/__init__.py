"""stripe-local: the parts of Stripe's HTTP API a booking product uses, for offline dev and tests.

Checkout Sessions (create, retrieve, list, line items, expire), PaymentIntents, charges and
refunds (retrieve, create refunds), events, Stripe-signed webhook delivery with retries, a hosted
checkout page with a test card form (ja/en), and test controls under `/_control/`. Point the
official SDK at it with its API base; state is in memory only. Run with
`python -m infra.stripe_local` (see `__main__`).
"""

from infra.stripe_local.app import Config, create_app
from infra.stripe_local.webhooks import signature_header

__all__ = ["Config", "create_app", "signature_header"]
