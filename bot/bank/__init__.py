"""The question bank: the workspace's catalog, suggestions and errata, the moderation queue,
and which question comes next."""
