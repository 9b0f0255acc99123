"""Game packages; each registers its games and presets when imported."""
