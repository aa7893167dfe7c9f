"""La Belle Alliance (U&D Games; design Hannu J. Uusitalo): Waterloo as a short game of corps
activations, morale and casualty tracks, with no hidden information.

Pure: nothing from Django. ``belle_alliance.engine`` holds the rules the rulebook gives and
reads everything card-specific from the card data it is handed (``engine.CardData``);
``belle_alliance.loader`` reads a data file (``data/house-v2.json``, the project's own
reconstruction of the cards, or a publisher's file with the same format);
``belle_alliance.module`` is the game service's module (kind ``belle_alliance``) and
``belle_alliance.bots`` its computer players. See README.md and RULINGS.md.
"""
