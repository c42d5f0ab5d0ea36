"""The variants' names: the stored key and the name a player reads ("Manipulation Rummy").

Below every model module, so a feature's models (a tournament's variant) name a variant without
importing ``games.models`` (which imports them to register them: a cycle).  ``games.models.Variant``
is this class.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Variant(models.TextChoices):
    MANIPULATION = "manipulation", _("Manipulation Rummy")
    GIN_BOX = "gin_box", _("Three-player Gin (box, captain, advisor)")
    GIN = "gin", _("Gin Rummy (two players)")
    OKLAHOMA = "oklahoma", _("Oklahoma Gin")
    HOLLYWOOD = "hollywood", _("Hollywood Gin")
