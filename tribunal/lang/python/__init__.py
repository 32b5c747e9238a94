"""The Python front end: ``ast`` readers and what pytest collects and runs."""
