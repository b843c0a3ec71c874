"""Built-in scoring rules, each a plugin module named in the entry points."""
