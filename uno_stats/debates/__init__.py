"""The commands that run and then analyse: ``settle`` (settle, settle_folder, settle_record)
and ``effects`` (effects)."""
