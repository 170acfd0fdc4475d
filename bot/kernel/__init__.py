"""The vocabulary every feature shares: references, events, models, errors, the
platform-neutral card, forms, the clock, and the platform and runtime ports."""
