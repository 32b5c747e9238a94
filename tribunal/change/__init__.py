"""The change under review: its files, their two sides, and the diff they come from."""
