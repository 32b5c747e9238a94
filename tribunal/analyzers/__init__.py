"""Built-in analyzers; each is listed in ``tribunal.registry`` and imported on use."""
