"""A battle presented: the board (``board_svg``) and the words (``words``), pure modules
that read only the engine's view and the card table (``view_context``)."""
