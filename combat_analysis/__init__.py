"""combat-analysis: answer questions about SMITE 2 combat logs.

The domain core. It never imports dagster: the Dagster layer (`assets/`, `resources/`) calls into it.
"""

__version__ = "0.1.0"
