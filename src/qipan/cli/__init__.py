"""The ``qipan`` command (needs the ``cli`` extra: click and rich)."""
