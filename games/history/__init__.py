"""history feature of the games app."""
