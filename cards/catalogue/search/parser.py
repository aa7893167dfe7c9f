# Over 500 lines on purpose: one idea, the search language (its fields, tokenizer and parser).
"""The card search language: text -> a small, validated AST.  Pure Python, no Django.

    army:french type:cavalry morale<=b bp>=8 battle:waterloo guard

Terms are ANDed; ``or`` between terms; ``-term`` negates; parentheses group; ``"quoted
values"`` keep spaces; a bare word or quoted phrase matches the card name (accent and case
insensitive).  ``parse()`` resolves field aliases and values, so every node in the AST is
canonical and valid: ``Term("army", "=", "french")`` whatever the user wrote (``a:fr``).

Every problem raises ``QueryError(message, position)``; position is a 0-based offset into the
query text.  Nothing else escapes ``parse()``, whatever the input.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..rules import EFFECT_KINDS  # pure Python too

MAX_QUERY_LENGTH = 1000
MAX_TERMS = 100
MAX_DEPTH = 16  # nested parentheses

# 6.0: morale letter -> morale value (higher is better).
MORALE_VALUES = {"a": 4, "b": 3, "c": 2, "d": 1}

OPERATORS = ("!=", "<=", ">=", ":", "=", "<", ">")
EQUALITY_OPERATORS = (":", "=", "!=")


class QueryError(ValueError):
    """A malformed query; ``position`` is the 0-based offset of the problem (None: no offset)."""

    def __init__(self, message: str, position: int | None = 0):
        self.message = message
        self.position = position
        super().__init__(message)

    def __reduce__(self) -> tuple[type[QueryError], tuple[str, int | None]]:
        # picklable (Celery, caches)
        return (self.__class__, (self.message, self.position))


def fold(text: str) -> str:
    """Lower case without accents: 'Napoléon' -> 'napoleon' (as cards.catalogue.records.fold)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


# --------------------------------------------------------------------------------------- AST


@dataclass(frozen=True)
class Term:
    """``field op value``; field is canonical, op one of OPERATORS, value canonical.

    value is an int for numeric fields, a canonical slug for enum/flag fields and the
    (case-kept) text for text fields.
    """

    field: str
    op: str
    value: str | int
    # (not ``field(...)``: in this class body mypy reads ``field`` as the attribute above)
    position: int = dataclasses.field(default=0, compare=False)


@dataclass(frozen=True)
class Name:
    """A bare word or quoted phrase: the folded text must occur in the card's name."""

    text: str
    position: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Not:
    child: Node
    position: int = field(default=0, compare=False)


@dataclass(frozen=True)
class And:
    children: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    children: tuple[Node, ...]


@dataclass(frozen=True)
class MatchAll:
    """The empty query: every card."""


Node = Term | Name | Not | And | Or | MatchAll


# ------------------------------------------------------------------------------ the fields


@dataclass(frozen=True)
class FieldSpec:
    name: str
    kind: str  # "number", "morale", "enum", "flag", "text"
    aliases: tuple[str, ...] = ()
    # enum/flag: canonical value -> accepted spellings (the canonical one is implied)
    values: dict[str, tuple[str, ...]] = field(default_factory=dict)
    help: str = ""

    @property
    def operators(self) -> tuple[str, ...]:
        return OPERATORS if self.kind in ("number", "morale") else EQUALITY_OPERATORS

    def resolve_value(self, raw: str, position: int) -> str | int:
        """The canonical value for raw text, or QueryError."""
        if self.kind == "number":
            if not raw.isascii() or not raw.isdigit():
                raise QueryError(f"{self.name} takes a whole number, got {_show(raw)}"
                                 f" at position {position}", position)
            if len(raw) > 5:
                raise QueryError(f"{self.name} takes a number up to 99999, got {_show(raw)}"
                                 f" at position {position}", position)
            return int(raw)
        if self.kind == "morale":
            letter = raw.lower()
            if letter not in MORALE_VALUES:
                raise QueryError(f"morale takes a letter A-D, got {_show(raw)}"
                                 f" at position {position}", position)
            return letter
        if self.kind in ("enum", "flag"):
            key = fold(raw)
            for canonical, spellings in self.values.items():
                if key == canonical or key in spellings:
                    return canonical
            noun = "is" if self.kind == "flag" else self.name
            raise QueryError(f"unknown {noun} value {_show(raw)} at position {position}"
                             f" (values: {', '.join(self.values)})", position)
        if raw.strip() == "":
            raise QueryError(f"{self.name} needs a non-empty value at position {position}",
                             position)
        return raw


def _spec(name: str, kind: str, aliases: Iterable[str] = (),
          values: Mapping[str, tuple[str, ...]] | None = None, help: str = "") -> FieldSpec:
    return FieldSpec(name, kind, tuple(aliases), dict(values or {}), help)


FIELDS: tuple[FieldSpec, ...] = (
    _spec("army", "enum", ["a"], {
        "french": ("fr", "f", "france"),
        "british": ("br", "b", "allied", "anglo-allied", "anglo-dutch", "britain"),
        "prussian": ("pr", "p", "prussia"),
    }, "the army (card back colour)"),
    _spec("type", "enum", ["t"], {
        "general": ("gen", "generals"),
        "infantry": ("inf",),
        "cavalry": ("cav",),
        "artillery": ("art", "arty"),
        "terrain": ("ter",),
        "special": ("spec", "specials"),
    }, "the card type (1.0)"),
    _spec("nationality", "enum", ["nat"], {
        "british": ("br", "gb"),
        "kgl": ("king's-german-legion",),
        "hanoverian": ("han", "hanover"),
        "brunswick": ("bru",),
        "nassau": ("nas",),
        "netherlands": ("nl", "dutch", "dutch-belgian", "belgian"),
    }, "contingent of an Anglo-Allied card"),
    _spec("battle", "enum", ["b"], {
        "quatre-bras": ("qb", "quatre_bras", "quatrebras"),
        "ligny": ("li",),
        "wavre": ("wa",),
        "waterloo": ("wt",),
    }, "a battle the card fought in"),
    _spec("morale", "morale", ["m"], help="letter A-D compared by morale value (A=4 ... D=1)"),
    _spec("number", "number", ["#", "n", "num"], help="card number 1-300"),
    _spec("bp", "number", ["points"], help="battle points (15.0)"),
    _spec("cv", "number", [], help="combat value (7.1)"),
    _spec("firepower", "number", ["f", "fire"], help="firepower F (7.2)"),
    _spec("shock", "number", ["s"], help="shock S (7.3)"),
    _spec("long", "number", ["fire_long"], help="artillery long-range firepower (7.23)"),
    _spec("short", "number", ["fire_short"], help="artillery short-range firepower (7.23)"),
    _spec("offense", "number", ["off", "o"], help="general's offense rating (12.1)"),
    _spec("defense", "number", ["def", "d"], help="general's defense rating (12.1)"),
    _spec("move", "number", ["move_limit"], help="terrain movement limit (11.0)"),
    _spec("class", "enum", ["terrain_class"], {
        "hill": ("hills",),
        "woods": ("wood",),
        "river": ("rivers", "bridge"),
        "building": ("buildings",),
    }, "terrain class (11.1-11.4)"),
    _spec("position", "enum", ["pos"], {
        "l": ("left",),
        "c": ("center", "centre"),
        "r": ("right",),
    }, "terrain position L/C/R (4.2)"),
    _spec("is", "flag", [], {
        "general": ("gen",),
        "troop": ("troops",),
        "infantry": ("inf",),
        "cavalry": ("cav",),
        "artillery": ("art",),
        "army-commander": ("commander", "ac"),
        "chief": ("chief-of-staff",),
        "second": ("second-in-command",),
        "guard": (),
        "special": ("spec",),
        "terrain": ("ter",),
        "horse": ("horse-artillery",),
        "foot": ("foot-artillery",),
    }, "a property of the card, see the reference"),
    _spec("corps", "text", [], help="O/B corps or general's corps, exact, case-insensitive"),
    _spec("ob", "text", [], help="substring of the O/B string corps/division/brigade"),
    _spec("name", "text", [], help="substring of the name (accents and case ignored)"),
    _spec("text", "text", ["special_text"], help="substring of a special card's text"),
    _spec("effect", "enum", [], {
        kind: (kind.replace("_", "-"), kind.replace("_", "")) for kind in EFFECT_KINDS
    }, "the effect kind of a special card (13.0)"),
)

FIELDS_BY_NAME: dict[str, FieldSpec] = {}
for _f in FIELDS:
    for _n in (_f.name, *_f.aliases):
        FIELDS_BY_NAME[_n] = _f


def field_spec(name: str) -> FieldSpec | None:
    return FIELDS_BY_NAME.get(name.lower())


def field_names() -> list[str]:
    return [f.name for f in FIELDS]


def _show(text: str) -> str:
    """A value quoted for a message, shortened and with control characters escaped."""
    if len(text) > 30:
        text = text[:27] + "..."
    return repr(text)


# ---------------------------------------------------------------------------- tokenizing

# A field name: letters, digits, '_', '-' or '#', starting with a letter or '#'.
_TERM_RE = re.compile(r"([A-Za-z#][A-Za-z0-9_#-]*)(!=|<=|>=|:|=|<|>)")
_WORD_END = set(' \t\r\n\f\v()"')


@dataclass
class _Token:
    kind: str  # "(", ")", "-", "or", "and", "word", "phrase", "term"
    position: int
    text: str = ""
    field: str = ""
    op: str = ""
    value: str = ""
    value_position: int = 0
    quoted: bool = False


def _tokenize(query: str) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(query)
    while i < n:
        c = query[i]
        if c.isspace():
            i += 1
            continue
        if c in "()":
            tokens.append(_Token(c, i))
            i += 1
            continue
        if c == "-" and (_separated(query, i)
                         or (tokens and tokens[-1].kind == "-" and tokens[-1].position == i - 1)):
            nxt = query[i + 1] if i + 1 < n else ""
            if nxt == "" or nxt.isspace() or nxt == ")":
                raise QueryError(f"'-' at position {i} must be followed by a term", i)
            tokens.append(_Token("-", i))
            i += 1
            continue
        if c == '"':
            text, i = _read_quoted(query, i)
            tokens.append(_Token("phrase", i - len(text) - 2, text=text, quoted=True))
            continue
        start = i
        while i < n and query[i] not in _WORD_END:
            i += 1
        chunk = query[start:i]
        match = _TERM_RE.match(chunk)
        if match:
            field_name, op = match.group(1), match.group(2)
            value = chunk[match.end():]
            value_position = start + match.end()
            quoted = False
            if value == "" and i < n and query[i] == '"':
                value, i = _read_quoted(query, i)
                quoted = True
            elif value == "":
                raise QueryError(f"expected a value after {_show(chunk)}"
                                 f" at position {start}", start)
            tokens.append(_Token("term", start, text=chunk, field=field_name, op=op,
                                 value=value, value_position=value_position, quoted=quoted))
            continue
        lead = re.match(r"(!=|<=|>=|:|=|<|>)", chunk)
        if lead:
            raise QueryError(f"expected a field name before {lead.group(1)!r}"
                             f" at position {start}", start)
        if chunk.lower() in ("or", "and"):
            tokens.append(_Token(chunk.lower(), start, text=chunk))
        else:
            tokens.append(_Token("word", start, text=chunk))
    return tokens


def _separated(query: str, i: int) -> bool:
    """A '-' starts a negation when it begins a term (after a space or '(')."""
    return i == 0 or query[i - 1].isspace() or query[i - 1] in "()"


def _read_quoted(query: str, start: int) -> tuple[str, int]:
    """The text of the quoted string starting at query[start] == '"' and the index after it."""
    end = query.find('"', start + 1)
    if end < 0:
        raise QueryError(f"unclosed quote starting at position {start}", start)
    return query[start + 1:end], end + 1


# ------------------------------------------------------------------------------- parsing


class _Parser:
    def __init__(self, query: str, tokens: list[_Token]):
        self.query = query
        self.tokens = tokens
        self.i = 0
        self.depth = 0
        self.terms = 0

    def peek(self) -> _Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def parse(self) -> Node:
        node = self.parse_or()
        token = self.peek()
        if token is not None:  # only a stray ')' can stop parse_or early
            raise QueryError(f"')' at position {token.position} has no matching '('",
                             token.position)
        return node

    def parse_or(self) -> Node:
        first = self.peek()
        if first is not None and first.kind == "or":
            raise QueryError(f"'{first.text}' at position {first.position} needs a term"
                             " before it", first.position)
        children = [self.parse_and()]
        while (token := self.peek()) is not None and token.kind == "or":
            self.i += 1
            nxt = self.peek()
            if nxt is None or nxt.kind in ("or", ")"):
                raise QueryError(f"'{token.text}' at position {token.position} needs a term"
                                 " after it", token.position)
            children.append(self.parse_and())
        return children[0] if len(children) == 1 else Or(tuple(children))

    def parse_and(self) -> Node:
        children: list[Node] = []
        while (token := self.peek()) is not None and token.kind not in ("or", ")"):
            if token.kind == "and":
                self.i += 1
                nxt = self.peek()
                if not children or nxt is None or nxt.kind in ("or", "and", ")"):
                    raise QueryError(f"'{token.text}' at position {token.position} needs a"
                                     " term on both sides", token.position)
                continue
            children.append(self.parse_unary())
        if not children:  # callers guarantee a token that is not 'or'/')' ... except '()'
            token = self.peek()
            position = token.position if token else len(self.query)
            raise QueryError(f"expected a term at position {position}", position)
        return children[0] if len(children) == 1 else And(tuple(children))

    def parse_unary(self) -> Node:
        negations: list[_Token] = []
        while (token := self.peek()) is not None and token.kind == "-":
            negations.append(token)
            self.i += 1
        if negations:
            token = self.peek()
            if token is None or token.kind in ("or", "and", ")"):
                last = negations[-1]
                raise QueryError(f"'-' at position {last.position} must be followed by a term",
                                 last.position)
        node = self.parse_atom()
        for token in reversed(negations):
            node = node.child if isinstance(node, Not) else Not(node, token.position)
        return node

    def parse_atom(self) -> Node:
        token = self.peek()
        assert token is not None  # tokenizer: '-' is always followed by something
        if token.kind == "(":
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise QueryError(f"parentheses nested too deeply at position {token.position}"
                                 f" (at most {MAX_DEPTH} levels)", token.position)
            self.i += 1
            nxt = self.peek()
            if nxt is None:
                raise QueryError(f"'(' at position {token.position} is never closed",
                                 token.position)
            if nxt.kind == ")":
                raise QueryError(f"empty parentheses at position {token.position}",
                                 token.position)
            node = self.parse_or()
            close = self.peek()
            if close is None or close.kind != ")":
                raise QueryError(f"'(' at position {token.position} is never closed",
                                 token.position)
            self.i += 1
            self.depth -= 1
            return node
        if token.kind in ("or", "and", ")"):  # unreachable through parse_and; kept for safety
            raise QueryError(f"unexpected {token.kind!r} at position {token.position}",
                             token.position)
        self.i += 1
        self.terms += 1
        if self.terms > MAX_TERMS:
            raise QueryError(f"too many terms at position {token.position}"
                             f" (at most {MAX_TERMS})", token.position)
        if token.kind in ("word", "phrase"):
            return self.name_node(token.text, token.position, token.quoted)
        return self.term_node(token)

    def name_node(self, text: str, position: int, quoted: bool) -> Node:
        folded = " ".join(fold(text).split())
        if not folded:
            raise QueryError(f"empty {'phrase' if quoted else 'word'} at position {position}",
                             position)
        return Name(folded, position)

    def term_node(self, token: _Token) -> Node:
        spec = field_spec(token.field)
        if spec is None:
            raise QueryError(f"unknown field {token.field!r} at position {token.position}"
                             f" (fields: {', '.join(field_names())})", token.position)
        op_position = token.position + len(token.field)
        if token.op not in spec.operators:
            raise QueryError(f"{token.op!r} does not apply to {spec.name} at position"
                             f" {op_position} (use ':' or '!=')", op_position)
        value = spec.resolve_value(token.value, token.value_position)
        if spec.kind == "text" and spec.name == "name":
            value = " ".join(fold(str(value)).split())
        return Term(spec.name, token.op, value, token.position)


def _check_characters(query: str) -> None:
    for i, c in enumerate(query):
        if c in "\t\n\r":
            continue
        category = unicodedata.category(c)
        if category in ("Cc", "Cs", "Co", "Cn") or c == "\ufffd":
            raise QueryError(f"character U+{ord(c):04X} at position {i} is not allowed", i)


def parse(query: str | None) -> Node:
    """The AST of a query (MatchAll for an empty one); QueryError for a malformed one."""
    if query is None:
        return MatchAll()
    if not isinstance(query, str):
        raise QueryError("the query must be text", 0)
    if len(query) > MAX_QUERY_LENGTH:
        raise QueryError(f"query is too long: {len(query)} characters (at most"
                         f" {MAX_QUERY_LENGTH})", MAX_QUERY_LENGTH)
    _check_characters(query)
    tokens = _tokenize(query)
    if not tokens:
        return MatchAll()
    return _Parser(query, tokens).parse()


def parse_value(field_name: str, raw: str) -> str | int:
    """Resolve one value of a field outside a query (API filters); QueryError(position=None)."""
    spec = field_spec(field_name)
    if spec is None:
        raise QueryError(f"unknown field {field_name!r}", None)
    try:
        return spec.resolve_value(raw, 0)
    except QueryError as exc:
        message = exc.message.replace(" at position 0", "")
        raise QueryError(message, None) from None


def describe_fields() -> list[dict]:
    """The field list of the language, for the API and the docs."""
    return [
        {"name": f.name, "aliases": list(f.aliases), "kind": f.kind,
         "operators": list(f.operators), "help": f.help,
         **({"values": {k: list(v) for k, v in f.values.items()}} if f.values else {})}
        for f in FIELDS
    ]
