"""Posting the report to GitHub: the sticky pull-request comment and the job summary.

Behind ``tribunal github-comment``. Each module has one job: ``context`` reads
what GitHub Actions puts in the environment, ``truncate`` fits a report into
GitHub's size limits, ``api`` is the one place that speaks HTTP, ``sticky``
finds and writes our own comment, ``summary`` appends to the job summary.
httpx is imported only by ``api``, and only when a request is made.
"""
