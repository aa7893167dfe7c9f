from django.urls import path

from . import api

urlpatterns = [
    path("notifications/", api.NotificationList.as_view(), name="notification-list"),
    path("notifications/read/", api.MarkRead.as_view(), name="notification-read"),
    path("notifications/settings/", api.Settings.as_view(), name="notification-settings"),
]
