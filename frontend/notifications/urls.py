from django.urls import path

from . import views

# Included from frontend/urls.py under "notifications/".
urlpatterns = [
    path("", views.notification_list, name="notifications"),
    path("read/", views.mark_read, name="notifications-read"),
    path("settings/", views.save_settings, name="notifications-settings"),
]
