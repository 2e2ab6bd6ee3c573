"""Differential tests against ns-2.35 (see harness.py)."""
