"""Bluetape over a fleet of captures with Apache Spark: readings, events and capture summaries as
DataFrames, and golden checks, with the bluetape binary run on each executor."""
from .captures import decode_captures, events_captures, info_captures
from .golden import golden_check_captures

__all__ = ["decode_captures", "events_captures", "info_captures", "golden_check_captures"]
__version__ = "0.1.0"
