"""Configuration: the typed settings, the reader of ``tribunal.yml``, its schema."""
