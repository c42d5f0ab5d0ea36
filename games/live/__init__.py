"""What runs in each server process, beside the requests: the table and lobby sockets
(``consumers``, their presence ``heartbeats``), the board data they share per version
(``boardcache``), the gate that lets one command per table at a time reach the row lock
(``gate``), and the loop of bots, timers and next rounds (``clock``).  Nothing here is kept
that a restart could lose: the database is the only state."""
