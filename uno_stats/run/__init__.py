"""From a checked scenario to results on disk: the plan (plan), the workers (backends), the
runner (runner) and its stop signals (interrupts)."""
