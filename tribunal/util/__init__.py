"""One-file utilities that know nothing of changes or findings."""
