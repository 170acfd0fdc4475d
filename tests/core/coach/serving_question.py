"""A question the coach's tests grade answers to, and an answer that explains three of its
four key points."""

from __future__ import annotations

QUESTION = "How would you serve a 70B-parameter model across 8 GPUs on one node?"
KEY_POINTS = (
    "Tensor parallelism splits each layer across the GPUs",
    "The KV cache needs memory per token and per request",
    "Continuous batching raises throughput",
    "NVLink bandwidth makes all-reduce cheap within a node",
)
SHARDING = "split every weight matrix column-wise over the eight cards"
KV_CACHE = "attention keeps past keys and values around, so memory use climbs with context length"
BATCHING = "new requests join the running batch at every decoding step instead of waiting"
ANSWER = (
    f"I would {SHARDING}, so each card holds an eighth of each layer.\n"
    f"{KV_CACHE.capitalize()} and with how many users are active. "
    f"Then {BATCHING}, which keeps the cards busy."
)
