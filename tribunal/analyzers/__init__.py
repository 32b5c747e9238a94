"""Built-in analyzers; each is listed in ``tribunal.engine.registry`` and imported on use."""
