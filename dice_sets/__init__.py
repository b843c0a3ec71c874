"""Built-in dice sets, registered through the same entry points as plugins."""
