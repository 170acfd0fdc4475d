"""The SQLite backend (aiosqlite): its connection, its one-hop transactions, and the
statements that must differ from PostgreSQL's. It imports nothing of ``storage.postgres``."""
