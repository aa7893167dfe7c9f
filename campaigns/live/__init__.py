"""Live campaigns over websockets (issue 13, "live updates"), designed as ``battles/live``:
``consumers.CampaignConsumer`` at ``ws/campaigns/<id>/``, ``messages`` builds what each viewer
receives (sync, from ``selectors.campaign_view`` only), ``notify`` nudges a campaign's group
when ``signals.campaign_changed`` fires (web process or Celery worker)."""
