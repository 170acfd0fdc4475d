"""The simulated learners' true memory, shared by the learning benches: FSRS with hidden
parameters of each learner's own, and the true outcome of trying to recall an answer."""

from __future__ import annotations

import random

from fsrs import Rating, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS


def hidden_memory(rng: random.Random) -> Scheduler:
    """A learner's true forgetting: how fast a first exposure sticks (x0.5-2 the default
    initial stabilities), how stability grows (±0.3) and the curve's decay (0.12-0.25)."""
    weights = list(DEFAULT_PARAMETERS)
    scale = rng.uniform(0.5, 2.0)
    for index in range(4):
        weights[index] = min(100.0, weights[index] * scale)
    weights[8] = min(4.5, max(0.0, weights[8] + rng.uniform(-0.3, 0.3)))
    weights[20] = rng.uniform(0.12, 0.25)
    return Scheduler(
        parameters=weights, learning_steps=(), relearning_steps=(), enable_fuzzing=False
    )


def true_outcome(chance: float, rng: random.Random) -> Rating:
    """What trying to recall an answer whose recall is ``chance`` really gives: Again when
    it is not recalled, else Hard, Good or Easy as the recall was shaky, fair or sure."""
    if rng.random() >= chance:
        return Rating.Again
    if chance < 0.5:
        return Rating.Hard
    if chance < 0.9:
        return Rating.Good
    return Rating.Easy
