"""``python -m bench``: run the labelled corpus and print recall and precision."""

from bench.harness import main

raise SystemExit(main())
