"""uno-stats: settle UNO house-rule debates with data."""
