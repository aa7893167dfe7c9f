"""Stratego: Waterloo (seed 001), a pure game module: its engine, data, rulings and bots (no
Django: its online app is ``online.stratego``)."""
