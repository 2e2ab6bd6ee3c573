"""Differential tests against ns-3 (see harness.py)."""
