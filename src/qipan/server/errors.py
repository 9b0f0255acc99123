"""The one error type the API turns into a JSON response with a 4xx status."""


class ApiError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message
