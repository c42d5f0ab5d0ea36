"""The live layer, above the services: what each server process runs beside the requests.  The table
and lobby sockets (``consumers``, their presence ``heartbeats``), the board data each version's
pushes share (``boardcache``, fed by the committed versions the services publish through
``games.versions.committed``), each version's views drawn once (``boardviews``), and the loop of
bots, timers and next rounds (``clockloop``).  Nothing here is kept that a restart could lose:
the database is the only state."""
