"""Scenario files: read (reader), checked key by key (fields, deck, checks), built and expanded
into sweep points (load, designs, seatings). Reads the engine's tables; knows no results folder."""
