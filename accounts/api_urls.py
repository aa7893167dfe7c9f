from django.urls import path

from . import api

urlpatterns = [
    path("auth/signup/", api.SignupView.as_view(), name="api-signup"),
    path("auth/login/", api.LoginView.as_view(), name="api-login"),
    path("auth/logout/", api.LogoutView.as_view(), name="api-logout"),
    path("auth/me/", api.MeView.as_view(), name="api-me"),
]
