"""Checks that run beside the engine, in plain Python: the trace replay of :mod:`.replay`,
whole games checked by :mod:`.games`, and the golden games of :mod:`.golden`."""
