"""Per-seat view-models of a table: what a board shows, built from loaded data (no database)."""
