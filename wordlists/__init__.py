"""Built-in word-list sources, each a plugin module named in the entry points."""
