"""Give a request's database connection back to the pool as soon as its answer is made.

Django closes a request's connections when the response has been sent (``request_finished``).
Under ASGI an answer of 400 or more is first logged on the event loop's default executor, whose
few threads are the ones the table sockets' moves and board loads run on — and those may be
waiting for a pooled connection that this request still holds until that logging is done: a
burst of refused moves deadlocked the pool against those threads until its timeout (issue 13.5).
This middleware, the outermost, returns the connection the moment the view and every inner
middleware are done, for every answer alike.
"""

from __future__ import annotations

from django.db import connections


class ReleaseConnectionsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self.get_response(request)
        finally:
            for conn in connections.all(initialized_only=True):
                if not conn.in_atomic_block:  # a test's transaction, or ATOMIC_REQUESTS: theirs to end
                    conn.close()
