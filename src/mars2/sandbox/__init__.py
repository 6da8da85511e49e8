"""Execute untrusted candidate code against tests (design.md §5)."""
