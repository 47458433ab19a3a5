"""What every model family shares: configuration checks, the threaded epoch driver, callbacks,
the memory estimate. Imports no family."""
