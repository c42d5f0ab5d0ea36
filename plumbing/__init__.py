"""The process and transport plumbing under the apps: knows Django and Channels, knows no game.

What ``games`` and ``accounts`` share below their own code: the one input layer (``inputs``), the
channel-layer group names and broadcasts (``realtime``), and what the wiring in ``rummyhub/`` plugs
into the process: the request middleware that gives connections back (``dbrelease``), the socket
origin check (``origin``), the embedded channel layer (``layers``) and the collector's settings
(``gctune``).  Nothing here imports ``games``, ``accounts`` or ``rummyhub`` (``.importlinter``).
"""
