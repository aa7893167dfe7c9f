"""Request parsers shared by the whole API."""

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class ObjectJSONParser(JSONParser):
    """JSON whose top level must be an object: every endpoint takes named fields, so a list,
    string or number is a 400 with a plain message instead of an error deep in a view."""

    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        if not isinstance(data, dict):
            raise ParseError(f"The request body must be a JSON object, not {_kind(data)}.")
        return data


def _kind(value) -> str:
    if value is None:
        return "null"
    return {list: "a list", str: "a string", bool: "a boolean"}.get(type(value), "a number")
