"""wordvec's tests: one package per model family or stage (docs/architecture.md)."""
