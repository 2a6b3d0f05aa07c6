"""Stripe's error shape: `{"error": {"type", "code", "message", "param", ...}}`."""

from typing import Any

DOC_URL = "https://stripe.com/docs/error-codes/"


class StripeError(Exception):
    """An API error answered with Stripe's JSON error body and HTTP status."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        type: str = "invalid_request_error",
        code: str | None = None,
        param: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.type = type
        self.code = code
        self.param = param
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"message": self.message, "type": self.type}
        if self.code is not None:
            error["code"] = self.code
            error["doc_url"] = DOC_URL + self.code.replace("_", "-")
        if self.param is not None:
            error["param"] = self.param
        error.update(self.extra)
        return {"error": error}


def missing(
    object_name: str, object_id: str, *, param: str = "id", status: int = 404
) -> StripeError:
    """`resource_missing`: 404 for an id in the path, 400 for an id given as a param."""
    return StripeError(
        status,
        f"No such {object_name}: '{object_id}'",
        code="resource_missing",
        param=param,
    )


def required(param: str) -> StripeError:
    return StripeError(
        400, f"Missing required param: {param}.", code="parameter_missing", param=param
    )


def invalid(param: str, message: str, code: str = "parameter_invalid_string") -> StripeError:
    return StripeError(400, message, code=code, param=param)


def card_declined() -> StripeError:
    return StripeError(
        402,
        "Your card was declined.",
        type="card_error",
        code="card_declined",
        extra={"decline_code": "generic_decline"},
    )
