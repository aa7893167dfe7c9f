"""Live updates over websockets (issue 12, "Live updates", "Spectators"): see README.md of
the battles app, section *Live updates*. ``consumers.BattleConsumer`` at ``ws/battles/<id>/``,
``messages`` builds what each viewer receives (sync, from the selectors only), ``notify``
sends each viewer class's group its message of a change (built once) or a nudge when
``signals.battle_changed`` fires, ``poller`` is the per-process safety net, ``threads`` runs
the consumers' database work off the event loop."""
