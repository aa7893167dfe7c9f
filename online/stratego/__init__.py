"""Stratego: Waterloo online: the Django app around the pure module ``stratego``."""
