"""The product's build inputs: what makes the files the service ships, kept apart from benchmarks.

- the labelled utterance corpus and the pair corpus (``training/data/``), the corpus builder and its
  templates (``build_utterance_corpus``, ``utterance_templates``);
- the trainers of the offline extractor's models, writing the shipped weights to
  ``core/extraction/data/`` (``train_memory_classifier``, ``train_memory_mlp``, ``train_pair_model``);
- the semantic-dedup calibration, writing ``core/memory/data/dedup_calibration.json``
  (``calibrate_dedup``, pairs in ``training/data/dedup_pairs.jsonl``).

Run each as a module from the repository root, ``.venv/bin/python -m training.<name>``. Imports
``core`` (and ``schemas``) only; no product package imports ``training`` (``.importlinter``).
"""
