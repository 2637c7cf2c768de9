"""I/O around the pure engine: command line, store, bus, gateway."""
