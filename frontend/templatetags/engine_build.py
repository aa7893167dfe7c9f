"""``{% computer_engine %}``: which build of the EAGLES engine the computer opponent thinks on
in this server (``battles.engine.BUILD``: 'compiled', the mypyc build, or 'pure' Python),
said as a player reads it. `make run` builds the compiled engine in the background
(bin/engine-in-background) and a server uses it from its next start."""

from django import template

register = template.Library()

WORDS = {
    "compiled": "The computer thinks on the compiled engine (the fast build).",
    "pure": "The computer thinks on the pure Python engine (the compiled build is not in use"
            " in this server; it is used from the next start once built).",
}


@register.simple_tag
def computer_engine() -> str:
    from battles.engine import BUILD

    return WORDS.get(BUILD, WORDS["pure"])
