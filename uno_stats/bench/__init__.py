"""The benchmark: engine throughput (throughput) and every measurement of ``bench --report``
(suite). Plays through the run layer; reads no analysis."""
