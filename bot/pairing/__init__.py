"""Mock interviews in pairs: opt-in, the weekly matching, briefs and ratings."""
