"""The shared test harness of the tests and the benchmarks (imported by both, importing neither).

The one pipeline harness (``pipeline.py``: the service processes on private topics, groups and
collection), the fault-injection pieces of ``tests/reliability`` and the fault benchmarks (a private
stack ``private_stack.py``, a known-outcome ``traffic.py`` stream, a retrieval ``probe.py``, the invariant
``checks.py``, fault ``scenario.py`` runs, the Kafka cluster faults ``cluster_faults.py``), and the
generated ``adversarial.py`` inputs of the regex-safety test and ``bench/bench_regex_worst.py``.
Not a product component: it may import core, consumers, producers, localstack and schemas.
"""
