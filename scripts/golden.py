"""Write the golden games: tests/engine/golden/<name>.txt, one file per case of
tests/engine/golden_cases.py (every preset, every house-rule key, a match).

Usage: .venv/bin/python scripts/golden.py
Run it from the repository root after a change that is meant to change how games play
out, read the diff (`git diff tests/engine/golden`), and commit it with the change.
Regenerating is deterministic: the same sources write the same bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from uno_stats.check.golden import GOLDEN_DIR, golden_text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "engine"))  # the cases live beside their test

from golden_cases import CASES  # noqa: E402


def main() -> None:
    """Write every case's file, remove files of cases that no longer exist, report changes."""
    out = ROOT / GOLDEN_DIR
    out.mkdir(parents=True, exist_ok=True)
    names = {case.name for case in CASES}
    for stale in sorted(out.glob("*.txt")):
        if stale.stem not in names:
            stale.unlink()
            print(f"removed {stale.name}")
    changed = 0
    for case in CASES:
        path = out / f"{case.name}.txt"
        text = golden_text(case)
        if path.exists() and path.read_bytes() == text.encode():
            continue
        path.write_bytes(text.encode())
        changed += 1
        print(f"wrote {path.name}")
    print(f"{len(CASES)} golden files in {GOLDEN_DIR}, {changed} written")


if __name__ == "__main__":
    main()
