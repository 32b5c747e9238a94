"""The labelled corpus and its harness (``python -m bench``), plus performance benchmarks."""
