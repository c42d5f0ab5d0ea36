"""Accounts: sign-up, log-in, log-out, password change and reset, profile (issue: foundation)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils.formats import date_format

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "correct-horse-battery"


def signup(client, **overrides):
    data = {"username": "alice", "email": "", "password1": GOOD_PASSWORD, "password2": GOOD_PASSWORD}
    data.update(overrides)
    return client.post(reverse("accounts:signup"), data)


def test_signup_logs_in_and_lands_on_home(client):
    response = signup(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    home = client.get(reverse("home"))
    assert home.context["user"].username == "alice"
    assert b"Welcome to RummyHub, alice!" in home.content
    assert get_user_model().objects.get(username="alice").email == ""


def test_after_sign_up_the_home_page_welcomes_once_and_not_back(client, make_user):
    signup(client)
    home = client.get(reverse("home")).content.decode()
    assert home.count("Welcome") == 1 and "Welcome to RummyHub, alice!" in home
    assert "Welcome back" not in client.get(reverse("home")).content.decode()  # not back: still the first visit
    # A later log-in is a return.
    client.post(reverse("accounts:logout"))
    make_user("bob")
    client.post(reverse("accounts:login"), {"username": "bob", "password": "correct-horse-battery"})
    home = client.get(reverse("home")).content.decode()
    assert "Welcome back, <bdi>bob</bdi>." in home and home.count("Welcome") == 1
    client.post(reverse("accounts:logout"))
    client.post(reverse("accounts:login"), {"username": "alice", "password": GOOD_PASSWORD})
    assert "Welcome back, <bdi>alice</bdi>." in client.get(reverse("home")).content.decode()


def test_signup_with_email_stores_it(client):
    signup(client, email="alice@example.com")
    assert get_user_model().objects.get(username="alice").email == "alice@example.com"


@pytest.mark.parametrize(
    ("overrides", "field", "fragment"),
    [
        ({"password2": "something-else-entirely"}, "password2", "didn’t match"),
        ({"password1": "short", "password2": "short"}, "password2", "too short"),
        ({"password1": "password", "password2": "password"}, "password2", "too common"),
        ({"password1": "83920174651", "password2": "83920174651"}, "password2", "entirely numeric"),
        ({"username": ""}, "username", "required"),
        ({"username": "bad name!"}, "username", "Enter a valid username"),
        ({"email": "not-an-email"}, "email", "valid email"),
    ],
)
def test_signup_errors_are_shown_next_to_the_field(client, overrides, field, fragment):
    response = signup(client, **overrides)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors
    assert any(fragment in e for e in errors[field]), errors
    assert fragment.encode() in response.content or fragment in response.content.decode()
    assert not get_user_model().objects.exists()


def test_duplicate_names_are_refused_case_insensitively(client, make_user):
    make_user("alice")
    response = signup(client, username="ALICE")
    assert response.status_code == 200
    assert "That name is taken" in response.context["form"].errors["username"][0]
    assert get_user_model().objects.count() == 1


def test_login_logout_round_trip(client, make_user):
    make_user("bob")
    response = client.post(reverse("accounts:login"), {"username": "bob", "password": GOOD_PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"].is_authenticated
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_logout_is_post_only(client, make_user):
    make_user("bob")
    client.login(username="bob", password=GOOD_PASSWORD)
    assert client.get(reverse("accounts:logout")).status_code == 405
    assert client.get(reverse("home")).context["user"].is_authenticated


def test_login_with_wrong_password_shows_an_error(client, make_user):
    make_user("bob")
    response = client.post(reverse("accounts:login"), {"username": "bob", "password": "nope"})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert b"Please enter a correct username and password" in response.content
    assert not response.context["user"].is_authenticated


def test_login_required_page_redirects_to_login_and_back(client, make_user):
    make_user("carol")
    url = reverse("accounts:password_change")
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('accounts:login')}?next={url}"
    response = client.post(response["Location"], {"username": "carol", "password": GOOD_PASSWORD, "next": url})
    assert response["Location"] == url


def test_password_change(client, make_user):
    make_user("dave")
    client.login(username="dave", password=GOOD_PASSWORD)
    response = client.post(
        reverse("accounts:password_change"),
        {
            "old_password": GOOD_PASSWORD,
            "new_password1": "another-horse-battery",
            "new_password2": "another-horse-battery",
        },
    )
    assert response.status_code == 302
    assert get_user_model().objects.get(username="dave").check_password("another-horse-battery")


def test_password_change_with_wrong_old_password(client, make_user):
    make_user("dave")
    client.login(username="dave", password=GOOD_PASSWORD)
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": "wrong", "new_password1": "another-horse-battery", "new_password2": "another-horse-battery"},
    )
    assert response.status_code == 200
    assert "old_password" in response.context["form"].errors
    assert get_user_model().objects.get(username="dave").check_password(GOOD_PASSWORD)


def test_password_reset_email_link_works(client, make_user):
    make_user("erin", email="erin@example.com")
    response = client.post(reverse("accounts:password_reset"), {"email": "erin@example.com"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["erin@example.com"]
    assert "Reset your RummyHub password" in message.subject
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", message.body).group(1)
    response = client.get(link)  # redirects to the session-stored token URL
    assert response.status_code == 302
    set_url = response["Location"]
    page = client.get(set_url)
    assert page.context["validlink"] is True
    response = client.post(set_url, {"new_password1": "fresh-horse-battery", "new_password2": "fresh-horse-battery"})
    assert response["Location"] == reverse("accounts:password_reset_complete")
    assert client.login(username="erin", password="fresh-horse-battery")
    # The link is single-use.
    client.logout()
    assert client.get(link, follow=True).context["validlink"] is False


def test_password_reset_for_unknown_email_sends_nothing_and_says_the_same(client):
    response = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.com"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert mail.outbox == []


def test_profile_page_shows_join_date(client, make_user):
    user = make_user("alice")
    response = client.get(reverse("profile", args=["alice"]))
    assert response.status_code == 200
    assert b"alice" in response.content

    assert f"Joined {date_format(user.date_joined, 'DATE_FORMAT')}" in response.content.decode()


def test_profile_of_unknown_player_is_404(client):
    assert client.get(reverse("profile", args=["ghost"])).status_code == 404


def test_base_layout_carries_csrf_header_and_logout_form(client, make_user):
    make_user("alice")
    client.login(username="alice", password=GOOD_PASSWORD)
    html = client.get(reverse("home")).content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    assert f'action="{reverse("accounts:logout")}"' in html
    assert 'ws-connect="/ws/presence/"' in html
    assert "htmx" in html and "hx-ws" in html


def test_persian_page_is_right_to_left(client):
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fa")
    assert b'dir="rtl"' in response.content
    assert b'lang="fa"' in response.content
