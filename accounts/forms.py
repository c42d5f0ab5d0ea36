from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class SignUpForm(UserCreationForm):
    """Username, optional email, password twice; Django's password validators.

    Names are unique case-insensitively: "Alice" cannot join when "alice" exists.
    """

    email = forms.EmailField(
        label=_("Email (optional)"),
        required=False,
        help_text=_("Only used to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self):
        username = self.cleaned_data.get("username", "")
        if get_user_model().objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("That name is taken. Please choose another one."), code="duplicate")
        return username
