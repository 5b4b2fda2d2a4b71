"""The sections and plots of ``bench/RESULTS.md``, one module per benchmark family; ``bench/report.py``
lays them out."""
