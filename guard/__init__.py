"""guard: project each shell command line onto what it would do, decide, and ask before it runs."""

__version__ = "0.1.0"
