"""Live updates over websockets (issue 12, "Live updates", "Spectators"): see README.md of
the battles app, section *Live updates*. ``consumers.BattleConsumer`` at ``ws/battles/<id>/``,
``messages`` builds what each viewer receives (sync, from the selectors only), ``notify``
nudges a battle's group when ``signals.battle_changed`` fires."""
