"""Card payment with Stripe Checkout. Money and slots always agree:

1. A priced appointment is `pending_payment` after submit; its hold is extended to the
   checkout session's end plus a grace (PAYMENT_GRACE_MINUTES), so the slot stays held for
   the whole payment. One payable session at a time: asking again returns the open one;
   after it expired or failed a new one is made. Each attempt has its own idempotency key.
2. Webhooks are verified on the raw body; each event is applied at most once (its id is
   stored in the transaction of its effects); the appointment only moves forward, whatever
   order events arrive in (an `expired` after a `completed` changes nothing).
3. A paid session confirms the booking if the appointment still holds its slot, or can take
   it again; otherwise (slot gone, amount or currency wrong, appointment already confirmed
   by another session, cancelled, a draft never submitted) the payment is refunded and both
   the person and the clinic are told. Never a double booking, never money kept without a
   booking. A paid event is believed as sent only for the appointment's own sessions;
   any other session id is taken from the provider, or ignored (verify.py).
4. When a pending payment's hold lapses, the session is expired through the API and the
   appointment is `expired`, an end state (realtime/booking/expiry.py): a payment that
   still arrives for it is refunded (`not_bookable`).
5. The reconciliation job asks the provider about every session still open or awaiting a
   refund, and applies what it finds as a webhook would have.
"""
