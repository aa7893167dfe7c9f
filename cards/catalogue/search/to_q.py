"""The search AST (cards.catalogue.search.parser) -> a Django Q over cards.models.Card.

Comparison semantics (also in the README): a comparison, ``!=`` included, only matches cards
that HAVE the attribute (``cv!=3`` never matches a General, whose cv is empty); a negated
term ``-cv:3`` matches every card the term does not match, Generals included.
"""

from __future__ import annotations

import operator
from functools import reduce

from django.db.models import CharField, F, Func, Q, Value
from django.db.models.functions import Coalesce, NullIf, Substr
from django.db.models.lookups import IContains, IExact

from game import TROOP_TYPES

from .parser import MORALE_VALUES, And, MatchAll, Name, Node, Not, Or, QueryError, Term

NUMBER_COLUMNS = {
    "number": "number", "bp": "bp", "cv": "cv", "firepower": "firepower", "shock": "shock",
    "long": "fire_long", "short": "fire_short", "offense": "offense", "defense": "defense",
    "move": "move_limit",
}
ENUM_COLUMNS = {
    "army": "army", "type": "type", "nationality": "nationality", "class": "terrain_class",
    "position": "terrain_position", "effect": "effect__kind",
}
BATTLE_COLUMNS = {
    "quatre-bras": "at_quatre_bras", "ligny": "at_ligny", "wavre": "at_wavre",
    "waterloo": "at_waterloo",
}
ORDER_LOOKUPS = {"<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


class _Pipe(Func):
    """SQL string concatenation that stays NULL if any part is NULL (unlike Concat)."""

    arg_joiner = " || "
    template = "(%(expressions)s)"
    output_field = CharField()


def ob_string() -> Substr:
    """The card's O/B string as Card.ob builds it: the non-empty parts joined by '/'."""
    parts = [Coalesce(_Pipe(Value("/"), NullIf(F(column), Value(""))), Value(""))
             for column in ("ob_corps", "ob_division", "ob_brigade")]
    return Substr(_Pipe(*parts), 2)


def _guard() -> Q:
    """is:guard: Morale A troops (Guard/Elite, 6.0) and every card of a 'Guard' corps
    (the French Imperial Guard: its troops by O/B corps, its generals by command)."""
    return (Q(morale="a") | Q(ob_corps__iexact="guard")
            | Q(type="general", corps__iexact="guard"))


FLAGS = {
    "general": lambda: Q(type="general"),
    "troop": lambda: Q(type__in=TROOP_TYPES),
    "infantry": lambda: Q(type="infantry"),
    "cavalry": lambda: Q(type="cavalry"),
    "artillery": lambda: Q(type="artillery"),
    "army-commander": lambda: Q(type="general", corps__iexact="a"),
    "chief": lambda: Q(chief_of_staff=True),
    "second": lambda: Q(second_in_command=True),
    "guard": _guard,
    "special": lambda: Q(type="special"),
    "terrain": lambda: Q(type="terrain"),
    "horse": lambda: Q(type="artillery", artillery_kind="horse"),
    "foot": lambda: Q(type="artillery", artillery_kind="foot"),
}


def morale_letters(op: str, letter: str) -> list[str]:
    """The morale letters whose VALUE (A=4 ... D=1) satisfies ``value op value(letter)``."""
    target = MORALE_VALUES[letter]
    test = {":": operator.eq, "=": operator.eq, "!=": operator.ne, "<": operator.lt,
            "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op]
    return [m for m, value in MORALE_VALUES.items() if test(value, target)]


def _present_and_not(column: str, value) -> Q:
    """``column != value`` among cards that have the column (see the module docstring)."""
    return Q(**{f"{column}__isnull": False}) & ~Q(**{column: value})


def term_q(term: Term) -> Q:
    field, op, value = term.field, term.op, term.value
    if field in NUMBER_COLUMNS:
        column = NUMBER_COLUMNS[field]
        if op in (":", "="):
            return Q(**{column: value})
        if op == "!=":
            return _present_and_not(column, value)
        return Q(**{f"{column}__{ORDER_LOOKUPS[op]}": value})
    if field == "morale":
        return Q(morale__in=morale_letters(op, str(value)))
    if field == "battle":
        return Q(**{BATTLE_COLUMNS[str(value)]: op != "!="})
    if field == "effect":
        q = Q(effect__kind=value)
        return Q(type="special") & ~q if op == "!=" else q
    if field in ENUM_COLUMNS:
        column = ENUM_COLUMNS[field]
        return _present_and_not(column, value) if op == "!=" else Q(**{column: value})
    if field == "is":
        q = FLAGS[str(value)]()
        return ~q if op == "!=" else q
    if field == "corps":
        q = Q(ob_corps__iexact=value) | Q(corps__iexact=value)
        if op == "!=":
            return (Q(ob_corps__isnull=False) | Q(corps__isnull=False)) & ~q
        return q
    if field == "name":
        if op == ":":
            return Q(search_name__contains=value)
        return Q(search_name=value) if op == "=" else ~Q(search_name=value)
    if field == "text":
        if op == ":":
            return Q(special_text__icontains=value)
        if op == "=":
            return Q(special_text__iexact=value)
        return Q(special_text__isnull=False) & ~Q(special_text__iexact=value)
    if field == "ob":
        if op == ":":
            return Q(IContains(ob_string(), value))
        if op == "=":
            return Q(IExact(ob_string(), value))
        return Q(ob_corps__isnull=False) & ~Q(IExact(ob_string(), value))
    raise QueryError(f"{field} cannot be searched at position {term.position}", term.position)


def to_q(node: Node) -> Q:
    """A Q object selecting the cards that match the AST node."""
    if isinstance(node, MatchAll):
        return Q()
    if isinstance(node, Name):
        return Q(search_name__contains=node.text)
    if isinstance(node, Term):
        return term_q(node)
    if isinstance(node, Not):
        return ~to_q(node.child)
    if isinstance(node, And):
        return reduce(operator.and_, (to_q(child) for child in node.children))
    if isinstance(node, Or):
        return reduce(operator.or_, (to_q(child) for child in node.children))
    raise TypeError(f"not a search node: {node!r}")
