"""The search language parser: pure Python, no database."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.catalogue.search import And, MatchAll, Name, Not, Or, QueryError, Term, parse
from cards.catalogue.search.parser import FIELDS, MAX_QUERY_LENGTH, describe_fields, parse_value
from cards.catalogue.search.to_q import morale_letters


def error(query: str) -> tuple[str, int | None]:
    with pytest.raises(QueryError) as info:
        parse(query)
    return info.value.message, info.value.position


# ---------------------------------------------------------------------------- AST shape


def test_example_query_ast():
    ast = parse("army:french type:cavalry morale<=b bp>=8 battle:waterloo guard")
    assert ast == And((
        Term("army", ":", "french"), Term("type", ":", "cavalry"), Term("morale", "<=", "b"),
        Term("bp", ">=", 8), Term("battle", ":", "waterloo"), Name("guard"),
    ))


def test_positions_are_offsets():
    ast = parse("army:french  bp>=8 guard")
    assert [child.position for child in ast.children] == [0, 13, 19]


@pytest.mark.parametrize("query", ["", "   ", "\t\n"])
def test_empty_query_matches_all(query):
    assert parse(query) == MatchAll()
    assert parse(None) == MatchAll()


def test_single_term_is_not_wrapped():
    assert parse("bp>=8") == Term("bp", ">=", 8)


def test_or_binds_looser_than_implicit_and():
    assert parse("a b or c") == Or((And((Name("a"), Name("b"))), Name("c")))
    assert parse("a or b c") == Or((Name("a"), And((Name("b"), Name("c")))))
    assert parse("a OR b Or c") == Or((Name("a"), Name("b"), Name("c")))


def test_explicit_and_is_accepted():
    assert parse("a and b") == And((Name("a"), Name("b")))


def test_parentheses_group():
    assert parse("(a or b) c") == And((Or((Name("a"), Name("b"))), Name("c")))
    assert parse("((bp:3))") == Term("bp", ":", 3)


def test_negation():
    assert parse("-army:french") == Not(Term("army", ":", "french"))
    assert parse("-(a or b) -c") == And((Not(Or((Name("a"), Name("b")))), Not(Name("c"))))
    assert parse("--a") == Name("a")
    assert parse("---a") == Not(Name("a"))


def test_hyphen_inside_a_word_is_not_negation():
    assert parse("is:army-commander") == Term("is", ":", "army-commander")
    assert parse("lefebvre-desnouettes") == Name("lefebvre-desnouettes")


def test_quotes():
    assert parse('name:"old guard"') == Term("name", ":", "old guard")
    assert parse('"Old  Guard" x') == And((Name("old guard"), Name("x")))
    assert parse('text:"+1 morale"') == Term("text", ":", "+1 morale")
    assert parse('"a or b"') == Name("a or b")  # keywords inside quotes are text


def test_bare_words_are_folded():
    assert parse("Napoléon") == Name("napoleon")
    assert parse("BLÜCHER") == Name("blucher")
    assert parse("name:Gérard") == Term("name", ":", "gerard")


def test_aliases_resolve_to_canonical_values():
    assert parse("a:fr") == Term("army", ":", "french")
    assert parse("a:anglo-allied") == Term("army", ":", "british")
    assert parse("t:cav") == Term("type", ":", "cavalry")
    assert parse("b:qb") == Term("battle", ":", "quatre-bras")
    assert parse("pos:centre") == Term("position", ":", "c")
    assert parse("nat:KGL") == Term("nationality", ":", "kgl")
    assert parse("#:12") == Term("number", ":", 12)
    assert parse("n>=111") == Term("number", ">=", 111)
    assert parse("f=3") == Term("firepower", "=", 3)
    assert parse("off>1") == Term("offense", ">", 1)
    assert parse("is:commander") == Term("is", ":", "army-commander")
    assert parse("effect:morale-modifier") == Term("effect", ":", "morale_modifier")
    assert parse("ARMY:French") == Term("army", ":", "french")
    assert parse("class:bridge") == Term("class", ":", "river")


def test_every_field_parses():
    samples = {"number": "12", "morale": "b", "effect": "remove_hits", "is": "guard"}
    for spec in FIELDS:
        if spec.kind == "number":
            value = "3"
        elif spec.kind in ("enum", "flag"):
            value = samples.get(spec.name, next(iter(spec.values)))
        else:
            value = samples.get(spec.name, "x")
        for name in (spec.name, *spec.aliases):
            assert parse(f"{name}:{value}").field == spec.name


def test_text_value_may_contain_operators():
    assert parse("text:a:b") == Term("text", ":", "a:b")


def test_morale_compares_by_value():
    # 6.0: A=4, B=3, C=2, D=1 -- 'morale<=b' is B, C or D.
    assert morale_letters("<=", "b") == ["b", "c", "d"]
    assert morale_letters(">=", "b") == ["a", "b"]
    assert morale_letters("<", "d") == []
    assert morale_letters(">", "c") == ["a", "b"]
    assert morale_letters("!=", "a") == ["b", "c", "d"]
    assert morale_letters(":", "c") == ["c"]


def test_describe_fields_lists_every_field():
    described = describe_fields()
    assert [f["name"] for f in described] == [f.name for f in FIELDS]
    army = next(f for f in described if f["name"] == "army")
    assert army["operators"] == [":", "=", "!="]
    assert "fr" in army["values"]["french"]


def test_parse_value_for_filters():
    assert parse_value("army", "pr") == "prussian"
    with pytest.raises(QueryError) as info:
        parse_value("army", "x")
    assert info.value.position is None
    assert "at position" not in info.value.message


# ------------------------------------------------------------------------------ errors


@pytest.mark.parametrize("query, message, position", [
    ("army:fr colour:red", "unknown field 'colour' at position 8 (fields: army, type,", 8),
    ("morale<e", "morale takes a letter A-D, got 'e' at position 7", 7),
    ("bp>4 army<fr", "'<' does not apply to army at position 9 (use ':' or '!=')", 9),
    ('bp>4 name:"old guard', "unclosed quote starting at position 10", 10),
    ('"abc', "unclosed quote starting at position 0", 0),
    ("a b)", "')' at position 3 has no matching '('", 3),
    ("bp>=", "expected a value after 'bp>=' at position 0", 0),
    ("x cv<", "expected a value after 'cv<' at position 2", 2),
    ("(a or b", "'(' at position 0 is never closed", 0),
    ("a ()", "empty parentheses at position 2", 2),
    ("or a", "'or' at position 0 needs a term before it", 0),
    ("a or", "'or' at position 2 needs a term after it", 2),
    ("a or or b", "'or' at position 2 needs a term after it", 2),
    ("(a or) b", "'or' at position 3 needs a term after it", 3),
    ("a and", "'and' at position 2 needs a term on both sides", 2),
    ("a - b", "'-' at position 2 must be followed by a term", 2),
    ("a -", "'-' at position 2 must be followed by a term", 2),
    ("-or b", "'-' at position 0 must be followed by a term", 0),
    (">=3", "expected a field name before '>=' at position 0", 0),
    ("bp>=x", "bp takes a whole number, got 'x' at position 4", 4),
    ("cv:-1", "cv takes a whole number, got '-1' at position 3", 3),
    ("bp:1234567", "bp takes a number up to 99999, got '1234567' at position 3", 3),
    ("army:italian", "unknown army value 'italian' at position 5 (values: french, british,"
                     " prussian)", 5),
    ("is:blue", "unknown is value 'blue' at position 3", 3),
    ("battle:austerlitz", "unknown battle value 'austerlitz' at position 7", 7),
    ('name:""', "name needs a non-empty value at position 5", 5),
    ('""', "empty phrase at position 0", 0),
    ("a\x00b", "character U+0000 at position 1 is not allowed", 1),
    ("is:guard\x7f", "character U+007F at position 8 is not allowed", 8),
])
def test_error_messages_and_positions(query, message, position):
    got_message, got_position = error(query)
    assert got_message.startswith(message), got_message
    assert got_position == position


def test_unknown_field_lists_the_fields():
    message, _ = error("colour:red")
    assert "(fields: army, type, nationality, battle, morale" in message


def test_too_long_query():
    message, position = error("a " * 600)
    assert message == f"query is too long: 1200 characters (at most {MAX_QUERY_LENGTH})"
    assert position == MAX_QUERY_LENGTH
    assert parse("a" * MAX_QUERY_LENGTH) == Name("a" * MAX_QUERY_LENGTH)


def test_deep_nesting_and_many_terms_are_bounded():
    message, position = error("(" * 40 + "a" + ")" * 40)
    assert message.startswith("parentheses nested too deeply at position 16")
    message, _ = error(" ".join(["a"] * 300))
    assert message.startswith("too many terms at position")
    # Long runs of negation collapse instead of recursing.
    assert parse("-" * 500 + "a") == Name("a")


def test_query_error_is_a_value_error_and_picklable():
    import pickle

    exc = QueryError("bad", 3)
    assert isinstance(exc, ValueError)
    again = pickle.loads(pickle.dumps(exc))
    assert (again.message, again.position) == ("bad", 3)


# ---------------------------------------------------------------------------- property

ALPHABET = st.sampled_from(list('abmrtx:=<>!-()" #\'éü0123456789') + ["or", "OR", "bp",
                                                                         "army", "is"])


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=200))
def test_parser_only_raises_query_error_on_any_text(text):
    try:
        parse(text)
    except QueryError as exc:
        assert isinstance(exc.message, str) and exc.message
        assert exc.position is None or 0 <= exc.position <= max(len(text), 1000)


@settings(max_examples=400, deadline=None)
@given(st.lists(ALPHABET, max_size=60).map("".join))
def test_parser_only_raises_query_error_on_query_like_text(text):
    try:
        parse(text)
    except QueryError as exc:
        assert exc.position is not None and 0 <= exc.position <= len(text)
