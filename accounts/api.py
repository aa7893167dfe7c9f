"""Account API: sign up, log in (session, and a token for scripts), log out, who am I."""

from django.contrib.auth import authenticate, login, logout, password_validation
from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import Throttled
from rest_framework.response import Response
from rest_framework.views import APIView

from config.parsers import ObjectJSONParser

from .limits import (
    LOGIN_PAUSED,
    LOGIN_PAUSED_SECONDS,
    LoginPaused,
    login_retry_after,
    record_login_failure,
    signup_attempt,
    wait_message,
)


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "email", "is_staff"]


class SignupSerializer(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]{3,150}$", max_length=150, error_messages={
        "invalid": "Use 3-150 letters, digits and @/./+/-/_ only."})
    email = serializers.EmailField(required=False, allow_blank=True)
    password = serializers.CharField(write_only=True, max_length=128)

    def validate_username(self, value: str) -> str:
        if User.objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("That username is taken.")
        return value

    def validate(self, attrs: dict) -> dict:
        candidate = User(username=attrs["username"], email=attrs.get("email", ""))
        try:
            password_validation.validate_password(attrs["password"], candidate)
        except Exception as exc:  # django ValidationError -> field error
            raise serializers.ValidationError({"password": list(exc.messages)}) from exc
        return attrs


class SessionSerializer(serializers.Serializer):
    """Signed in: the session cookie is set; the token is for scripts (Authorization: Token ...)."""

    user = UserSerializer()
    token = serializers.CharField()


class AuthErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, max_length=128)


def _session_and_token(request, user: User) -> dict:
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    token, _ = Token.objects.get_or_create(user=user)
    return {"user": UserSerializer(user).data, "token": token.key}


class _Throttled(Throttled):
    """429 with Retry-After (DRF sets the header from ``wait``) and our message."""

    def __init__(self, wait: int):
        super().__init__(detail=wait_message(wait))  # DRF would append its own sentence
        self.wait = wait


class SignupView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    # JSON only: a cross-site HTML form cannot send application/json, so no login CSRF.
    parser_classes = [ObjectJSONParser]

    @extend_schema(request=SignupSerializer, responses={201: SessionSerializer})
    def post(self, request):
        wait = signup_attempt(request, str(request.data.get("username", "")))
        if wait is not None:
            raise _Throttled(wait)
        data = SignupSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = User.objects.create_user(data.validated_data["username"],
                                        data.validated_data.get("email", ""),
                                        data.validated_data["password"])
        return Response(_session_and_token(request, user), status=status.HTTP_201_CREATED)


class LoginView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    parser_classes = [ObjectJSONParser]  # JSON only, as for sign-up (login CSRF)

    @extend_schema(request=LoginSerializer,
                   responses={200: SessionSerializer, 400: AuthErrorSerializer,
                              429: AuthErrorSerializer, 503: AuthErrorSerializer})
    def post(self, request):
        data = LoginSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        username = data.validated_data["username"]
        try:
            wait = login_retry_after(request, username)
        except LoginPaused:  # the limits cannot be checked: closed, saying why
            return Response({"detail": LOGIN_PAUSED}, status=status.HTTP_503_SERVICE_UNAVAILABLE,
                            headers={"Retry-After": str(LOGIN_PAUSED_SECONDS)})
        if wait is not None:
            raise _Throttled(wait)
        user = authenticate(request, username=username,
                            password=data.validated_data["password"])
        if user is None:
            record_login_failure(request, username)
            return Response({"detail": "Wrong username or password."},
                            status=status.HTTP_400_BAD_REQUEST)
        return Response(_session_and_token(request, user))


class LogoutView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def post(self, request):
        Token.objects.filter(user=request.user).delete()
        logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: UserSerializer})
    def get(self, request):
        return Response(UserSerializer(request.user).data)
