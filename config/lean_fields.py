"""Serializer fields copied without ``copy.deepcopy`` (bench/request_cpu.py).

DRF gives every serializer instance its own fields by deep-copying the declared ones, which
re-runs every field's ``__init__`` and walks every argument (each choice tuple of a
``ChoiceField``); on ``POST /api/decks/validate/`` that copy cost more than the deck rules.
A declared field is never changed after it is built except by ``bind`` (which sets its name,
parent, label and source on the copy it is given), so a shallow copy of it is a field of its
own: ``LeanFieldsMixin`` copies the declared fields that way. A field that holds another field
(a list's ``child``, bound to it when it was built) is rebuilt from its arguments instead,
its nested fields fresh too, so nothing bound to one request is ever shared; unless the
field says ``lean_copy = True``: its nested fields only describe it (the API schema) and are
never run.
"""

from __future__ import annotations

import copy

from rest_framework import serializers


def rebuild(field: serializers.Field) -> serializers.Field:
    """A new field built from ``field``'s arguments, its nested fields rebuilt too."""
    kwargs = {key: rebuild(value) if isinstance(value, serializers.Field) else value
              for key, value in field._kwargs.items()}
    return field.__class__(*field._args, **kwargs)


def fresh(field: serializers.Field) -> serializers.Field:
    """An unbound copy of the unbound declared ``field``, for one serializer instance."""
    if not getattr(field, "lean_copy", False) and any(
            isinstance(value, serializers.Field) for value in field._kwargs.values()):
        return rebuild(field)
    return copy.copy(field)


class LeanFieldsMixin:
    """For a serializer whose declared fields are plain fields (no serializers nested)."""

    def get_fields(self):
        return {name: fresh(field) for name, field in self._declared_fields.items()}
