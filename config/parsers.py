"""Request parsers shared by the whole API. Every body parser refuses NUL and other control
characters with a 400 naming the field (config/clean_input.py); JSON nested too deep is a 400
too (config/safe_json.py)."""

from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser, get_encoding
from rest_framework.utils.json import strict_constant

from config import safe_json
from config.clean_input import check_body, check_form


class ObjectJSONParser(JSONParser):
    """JSON whose top level must be an object: every endpoint takes named fields, so a list,
    string or number is a 400 with a plain message instead of an error deep in a view."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = get_encoding(parser_context or {})
        constant = strict_constant if self.strict else None
        try:
            data = safe_json.loads(stream.read().decode(encoding), parse_constant=constant)
        except safe_json.TooDeep as exc:
            raise ParseError(str(exc)) from None
        except ValueError as exc:  # not JSON, or not text in that encoding
            raise ParseError(f"JSON parse error - {exc}") from None
        if not isinstance(data, dict):
            raise ParseError(f"The request body must be a JSON object, not {_kind(data)}.")
        check_body(data)
        return data


class CleanFormParser(FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        check_form(data)
        return data


class CleanMultiPartParser(MultiPartParser):
    """Form fields are checked; uploaded files are the importers' business (they validate
    their own contents)."""

    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        check_form(parsed.data)
        return parsed


def _kind(value) -> str:
    if value is None:
        return "null"
    return {list: "a list", str: "a string", bool: "a boolean"}.get(type(value), "a number")
