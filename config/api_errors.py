"""One error shape for the whole API, mapped here once (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``):

- a service's refusal (``config.errors.ServiceError``): ``{"detail": message, "code": code,
  **extra}`` with its status;
- bad input caught by a serializer: ``{"detail": ..., "errors": {...}}`` with a 400 (the
  detail is "Invalid input.", or every message in one line when the view names a
  ``flatten_errors`` function);
- anything DRF knows (401, 403, 404, 405, 429...): ``{"detail": ...}``.
"""

from collections.abc import Callable

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import ServiceError


def service_error_body(exc: ServiceError) -> dict:
    """The API body of a service's refusal (the one place it is built)."""
    return {"detail": exc.message, "code": exc.code, **exc.extra}


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, ServiceError):
        # Nothing to roll back: the service's own transaction already did (see config.errors).
        return Response(service_error_body(exc), status=exc.status)
    flatten: Callable | None = getattr(context.get("view"), "flatten_errors", None)
    if (flatten is not None and isinstance(exc, exceptions.ValidationError)
            and not (isinstance(exc.detail, dict) and "detail" in exc.detail)):
        return Response({"detail": "; ".join(flatten(exc.detail)), "errors": exc.detail},
                        status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = exceptions.ValidationError(detail)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" not in response.data:
        response.data = {"detail": "Invalid input.", "errors": response.data}
    elif response is not None and isinstance(response.data, list):
        response.data = {"detail": " ".join(str(m) for m in response.data), "errors": response.data}
    return response
