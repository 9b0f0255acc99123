"""The one error type the API turns into a JSON response with a 4xx status."""

#: Longest error message sent: messages quote the input they refuse, which may be huge.
MAX_MESSAGE = 300


class ApiError(Exception):
    def __init__(self, status: int, message: str):
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 1] + "…"
        super().__init__(message)
        self.status = status
        self.message = message
