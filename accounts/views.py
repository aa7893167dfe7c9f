from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from .forms import SignupForm
from .limits import (
    LOGIN_PAUSED,
    LOGIN_PAUSED_SECONDS,
    LoginPaused,
    login_retry_after,
    record_login_failure,
    signup_attempt,
    wait_message,
)


def _throttled(response: HttpResponse, wait: int) -> HttpResponse:
    response["Retry-After"] = str(wait)
    return response


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    if request.method == "POST":
        wait = signup_attempt(request, request.POST.get("username", ""))
        if wait is not None:
            return _throttled(render(request, "accounts/signup.html", {
                "form": SignupForm(initial={"username": request.POST.get("username", "")}),
                "throttled": wait_message(wait)}, status=429), wait)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


class LoginView(auth_views.LoginView):
    """Django's log-in page with the limits of accounts/limits.py: a blocked name or address
    gets the form back with a message and 429, without the password being checked."""

    template_name = "accounts/login.html"

    def get_form(self, form_class=None):
        # No autofocus on the name: the first Tab of every page reaches the skip link.
        form = super().get_form(form_class)
        form.fields["username"].widget.attrs.pop("autofocus", None)
        return form

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            wait = login_retry_after(request, request.POST.get("username", ""))
        except LoginPaused:  # the limits cannot be checked: closed, saying why
            return self._refused(request, LOGIN_PAUSED, LOGIN_PAUSED_SECONDS, 503)
        if wait is not None:
            return self._refused(request, wait_message(wait), wait, 429)
        return super().post(request, *args, **kwargs)

    def _refused(self, request: HttpRequest, message: str, wait: int,
                 status: int) -> HttpResponse:
        form = self.get_form_class()(request,
                                     initial={"username": request.POST.get("username", "")})
        context = self.get_context_data(form=form, throttled=message)
        return _throttled(self.render_to_response(context, status=status), wait)

    def form_invalid(self, form) -> HttpResponse:
        record_login_failure(self.request, self.request.POST.get("username", ""))
        return super().form_invalid(form)
