"""The results folder on disk: Parquet parts (parts), the run model (manifest), what is really
there (verify, run_check), the folder lock (lock) and the folder at the edge (folder)."""
