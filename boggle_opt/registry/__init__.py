"""Plugins and what they register: hook specifications (``hookspecs``), the loader
(``loader``), the typed registries (``registries``) and dictionaries by name
(``dictionaries``).

May import: everything below it (``core`` .. ``searching``, ``boards``); never
``runs`` or ``cli``.
"""
