"""Checks that run beside the engine, in plain Python: the trace replay of :mod:`.replay`."""
