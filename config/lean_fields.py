"""Serializer fields copied without ``copy.deepcopy`` (bench/request_cpu.py).

DRF gives every serializer instance its own fields by deep-copying the declared ones; for a
``ChoiceField`` that walks every choice tuple, and on ``POST /api/decks/validate/`` the copy
cost more than the deck rules. Our declared fields take only immutable arguments (text,
numbers, choice tuples, booleans, other fields), so a fresh field built from the same arguments
is the same field: ``LeanFieldsMixin`` builds the copies that way (nested fields, such as a
list's ``child``, are rebuilt in turn, so nothing bound to one request is shared).
"""

from __future__ import annotations

from rest_framework import serializers


def fresh(field: serializers.Field) -> serializers.Field:
    """A new, unbound field with ``field``'s arguments (its nested fields fresh too)."""
    kwargs = {key: fresh(value) if isinstance(value, serializers.Field) else value
              for key, value in field._kwargs.items()}
    return field.__class__(*field._args, **kwargs)


class LeanFieldsMixin:
    """Use on a serializer whose declared fields take only immutable arguments."""

    def get_fields(self):
        return {name: fresh(field) for name, field in self._declared_fields.items()}
