"""The card search language (see cards/catalogue/search/parser.py and the README)."""

from .parser import (
    FIELDS,
    MAX_QUERY_LENGTH,
    MORALE_VALUES,
    And,
    MatchAll,
    Name,
    Node,
    Not,
    Or,
    QueryError,
    Term,
    describe_fields,
    parse,
    parse_value,
)

__all__ = [
    "FIELDS", "MAX_QUERY_LENGTH", "MORALE_VALUES", "And", "MatchAll", "Name", "Node", "Not",
    "Or", "QueryError", "Term", "describe_fields", "parse", "parse_value",
]
