"""tournaments feature of the games app."""
