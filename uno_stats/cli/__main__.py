"""``python -m uno_stats.cli``: the ``uno-stats`` command."""

from uno_stats.cli import main

if __name__ == "__main__":
    main()
