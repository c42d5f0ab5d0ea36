from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from accounts import checks, language  # noqa: F401  (checks registers itself)

        user_logged_in.connect(language.on_logged_in, dispatch_uid="accounts.language")
