"""Blind answers: members answer privately until the reveal."""
