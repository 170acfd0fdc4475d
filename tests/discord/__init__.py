"""Tests of the Discord adapter.

discord.py 2.7 imports the stdlib ``audioop`` module, which warns on import
under Python 3.11/3.12; the suite turns warnings into errors, so discord is
imported here once with that one warning silenced.
"""

import warnings

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord  # noqa: F401
