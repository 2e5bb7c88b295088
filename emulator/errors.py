"""Refusals shaped like Telegram's, so python-telegram-bot raises the same exception as in production."""

from __future__ import annotations


class ApiError(Exception):
    """A call the emulated Telegram refuses; carries the HTTP status and Telegram's description."""

    def __init__(self, status: int, description: str, *, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.retry_after = retry_after

    def to_json(self) -> dict[str, object]:
        body: dict[str, object] = {"ok": False, "error_code": self.status, "description": self.description}
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


def bad_request(reason: str) -> ApiError:
    return ApiError(400, f"Bad Request: {reason}")


def forbidden(reason: str) -> ApiError:
    return ApiError(403, f"Forbidden: {reason}")


def not_found(reason: str) -> ApiError:
    """For the user-side API only: the Bot API answers unknown objects with 400, as Telegram does."""
    return ApiError(404, f"Not Found: {reason}")
