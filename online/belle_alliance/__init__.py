"""La Belle Alliance online: the Django app around the pure module ``belle_alliance``."""
