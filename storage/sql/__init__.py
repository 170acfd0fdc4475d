"""The SQL both backends share, written once against the session protocol of ``session``.

Each module is one aggregate (or the statements several aggregates share); a backend's
store builds them over its own database object (``storage.sqlite``, ``storage.postgres``).
"""
