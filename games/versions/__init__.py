"""What sits below the services and the live layer alike: the gate that lets one command at a time per
table and process at its row (``gate``), and the hand-off of each committed version to whoever in
this process listens (``committed``: the live layer's board cache)."""
