"""Git: the one runner of git commands, ``git grep`` of the head, git's quoting."""
