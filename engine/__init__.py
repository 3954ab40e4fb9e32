"""The reference rules engine: standard-library Python only (it also runs in Pyodide)."""
