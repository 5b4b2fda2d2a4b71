"""Benchmarks of pai-memory (not tests): one script per benchmark, run by ``run_all.py``; see README.md."""
