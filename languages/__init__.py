"""Built-in languages, each a plugin module named in the entry points."""
