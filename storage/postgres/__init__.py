"""The PostgreSQL backend (asyncpg), for several replicas: its pool, the translation of
the shared statements, outbox leases, NOTIFY announcements and the statements that must
differ from SQLite's. It imports nothing of ``storage.sqlite``.

asyncpg is an optional dependency (``quizbot[postgres]``), imported only when a
``postgresql://`` URL is opened.
"""
