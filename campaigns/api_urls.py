from play import api as games

from . import api

# The views every kind of match shares (play.api), bound to campaigns: /api/campaigns/<id>/
# is /api/games/campaign/<id>/.
urlpatterns = games.urls(api.GAME, "campaigns", "campaign")
