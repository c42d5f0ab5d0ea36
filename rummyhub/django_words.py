"""Django's own words that our pages show, copied into the site's catalogue.

Django translates these itself in Romanian, Persian and Tamil, but it has no Corsican catalogue:
without a copy in ``locale/co`` a Corsican page would show its form errors, the auth forms' labels,
the password rules and the month names in English.  Listing them here puts their msgids into our
catalogue (``make messages`` extracts them; our catalogue wins over Django's).  For the languages
Django knows, ``make messages`` fills them from Django's own catalogues
(``games/management/commands/makemessages.py``), so only Corsican needs a translator for them.

Every msgid here must be exactly Django's (``tests/rummyhub/test_catalogues.py`` checks each one
against Django's Romanian catalogue): a msgid that differs by a character is never looked up.
Nothing imports this module; the functions are never called.
"""

from django.utils.translation import gettext_noop, ngettext

DJANGO_WORDS = [
    # Form fields and validators (django/forms, django/core/validators.py).
    gettext_noop("This field is required."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("Enter a whole number."),
    gettext_noop("Enter a number."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("Select a valid choice. That choice is not one of the available choices."),
    gettext_noop("Ensure this value is less than or equal to %(limit_value)s."),
    gettext_noop("Ensure this value is greater than or equal to %(limit_value)s."),
    # The auth forms: sign-up, log-in, password change and reset (django/contrib/auth/forms.py).
    gettext_noop("Password"),
    gettext_noop("Password confirmation"),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop("Please enter a correct %(username)s and password. Note that both fields may be case-sensitive."),
    gettext_noop("This account is inactive."),
    gettext_noop("Email"),
    gettext_noop("Old password"),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    # The user model's fields as the forms and the similarity validator name them.
    gettext_noop("username"),
    gettext_noop("email address"),
    gettext_noop("first name"),
    gettext_noop("last name"),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("A user with that username already exists."),
    gettext_noop("Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters."),
    # The password validators (django/contrib/auth/password_validation.py).
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("This password is too common."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("Your password can’t be entirely numeric."),
    # Pagination (django/core/paginator.py).
    gettext_noop("That page number is not an integer"),
    gettext_noop("That page number is less than 1"),
    gettext_noop("That page contains no results"),
    # Month names: the date formats of every language use "F" (django/utils/dates.py).
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
]


def _django_plurals(n: int) -> None:  # pragma: no cover - never called: the extractor reads it
    ngettext(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        n,
    )
    ngettext(
        "This password is too short. It must contain at least %(min_length)d character.",
        "This password is too short. It must contain at least %(min_length)d characters.",
        n,
    )
    ngettext(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        n,
    )
