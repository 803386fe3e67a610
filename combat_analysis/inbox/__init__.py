"""What is dropped into the data home, and how long answers are kept.

- `requests`: log files and question files dropped in, registered under their partition keys;
- `retention`: when an answered question has expired, and the files it leaves.

May import `ingest` (a log's match id, read from its start line) and the layers below it.
"""
