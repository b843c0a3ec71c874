"""Built-in searchers (registered through the boggle_opt entry points)."""
