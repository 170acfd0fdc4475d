"""The question bank: the workspace's catalog, suggestions and errata, the review queue,
and which question comes next."""
