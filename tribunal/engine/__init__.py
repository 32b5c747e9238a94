"""Running the analyzers over a change: the table of analyzers, the engine, the ranges."""
