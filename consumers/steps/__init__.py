"""The steps the consumer groups' strategies are composed of, one contract each (after Arroyo's
strategies), each tested without a broker with a mock next step (``tests/consumers/steps``):

- ``retry``: ``ErrorPolicy.decide`` (retry or dead-letter, by ``consumers.errors.classify``) and
  ``Backoff`` (attempts, next try, draining a backlog in partition order);
- ``dead_letter``: ``DeadLetterStep``, where every record of every group ends: marked done with its
  outcome, or dead-lettered (with its own backlog of failed publishes), under the dead-letter limit
  of ``dlq_limit`` (a bad deploy stops instead of dead-lettering every record);
- ``ingest``: the extractor's parse and batch store of chat messages (``IngestStep``);
- ``bursts``: the extractor's debounce and per-user order (``BurstScheduler``);
- ``pool``: a bounded pool of worker threads that pushes back when full (``BoundedPool``).

Every step runs on the loop thread except the pool's workers; none imports a Kafka client (records
are ``consumers.runtime.Record``; dead letters go through ``consumers.dlq``).
"""
