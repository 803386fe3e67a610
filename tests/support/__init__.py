"""Helpers the tests import (never fixtures: those live in conftest.py files): paths, simulated logs, truth
checks, the paraphrase generator, the adversarial corpus, the golden questions, stubs, and the test-only plugins
that measure charts and pause an ingest."""
