"""An answer to an htmx request that refuses, yet is meant to be shown: the target's fragment again
with the reason in it (the board with "not your turn", the chat form with "too long").

htmx 2 swaps no 4xx or 5xx answer by itself, so a page would show nothing.  A view marks such an
answer with :func:`shown`; every page's script (``static/js/site.js``) swaps the answers so marked
and says any other refused or failed request in a notice.  Imports nothing of the project.
"""

from __future__ import annotations

from django.http import HttpResponse

HEADER = "X-Refusal-Shown"


def shown(response: HttpResponse) -> HttpResponse:
    """Mark ``response``, if it refuses (status 4xx), as the fragment its htmx target shows; an answer
    that does not refuse is swapped anyway and goes unmarked."""
    if response.status_code >= 400:
        response[HEADER] = "1"
    return response
