# uno-stats: everyday commands. The first target that needs the venv creates it.
#   make install      create .venv, install, compile the engine once (so the first run is warm)
#   make run          simulate the Mattel 2022 four-player table; ends with three commands to try next
#   make test         the whole test suite (make test-fast: without the slow statistical tests)
#   make lint         ruff check + ruff format --check + mypy
#   make bench        the bench report -> reports/bench.md (BENCH_GAMES=20000 for a quick one)
#   make golden       rewrite the golden game traces in tests/engine/golden/ (after an intended change)
#   make chaos        kill, corrupt and overload runs end to end; a table of what survived
#                     (a few minutes; not part of make test)
#   make reports      rerun the shipped scenarios of REPORT_SCENARIOS into reports/NAME/
#   make clean        remove results, caches and build leftovers (keeps .venv and reports/)

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SCENARIO ?= scenarios/mattel-2022-4p.yaml
# Shipped scenarios (scenarios/NAME.yaml) whose reports are kept in reports/NAME/.
REPORT_SCENARIOS ?= mattel-2022-4p seven-zero jump-in draw-until-playable forced-play \
	no-action-finish uno-penalty challenge-bluffing match-points match-low-score match-partners \
	players-sweep strategies-mixed tournament opening-ignore wd4-no-other-play seating-random \
	no-reshuffle deflect multi-play two-decks-12-players numbers-only
# Skill vs luck: one tournament per preset (tournament = mattel-2022), reported together.
TOURNAMENTS := tournament tournament-mattel-2001 tournament-classic-house tournament-draw-until-playable
# The stacking debate compares three scenarios in one report.
STACKING := stacking-off stacking-draw-two stacking-all
# "How much of UNO is the action cards?": the classic deck (stacking-off: classic house, no
# stacking) against numbers-only, same table, seed and games, in one report.
ACTION_CARDS := stacking-off numbers-only
# Which house rule matters most: the 15-rule screen (a resolution V fraction, 256 points) and
# the full factorial of five rules at 2, 4 and 6 players; each report opens with its effects.
HOUSE_RULES := house-rules-screen house-rules-five
# Rounds per measurement of `make bench` (memory runs use 10x and 1/10 of it).
BENCH_GAMES ?= 1000000
# Serial pytest is faster than -n 2 on this 2-core machine (see README "Development").
PYTEST ?= $(BIN)/pytest

.PHONY: install run test test-fast boundscheck lint bench golden chaos reports clean

# Reinstall only when pyproject.toml changed since the last install.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Compiles the engine when its cache is cold (with a notice; a minute or two), else loads it.
# Byte-compiles the package too: with PYTHONDONTWRITEBYTECODE set (as on some CI images)
# Python would otherwise recompile every module of uno_stats on each command.
install: $(STAMP)
	$(BIN)/python -m compileall -q uno_stats > /dev/null
	$(BIN)/python -c "from uno_stats.engine.jit import ensure_compiled; ensure_compiled()"

run: install
	$(BIN)/uno-stats run $(SCENARIO) --fresh

test: $(STAMP)
	$(PYTEST)

test-fast: $(STAMP)
	$(PYTEST) -m "not slow"

# The engine indexes arrays without Python's negative wrap-around (jit._no_negative_index_wrap):
# play the tests once more with numba's bounds checks on, in a cache of their own, so that
# any negative index raises instead of reading outside an array.
boundscheck: $(STAMP)
	NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$(CURDIR)/$(VENV)/numba-boundscheck $(PYTEST) -m "not slow" -p no:cacheprovider

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: install
	$(BIN)/uno-stats bench --report --games $(BENCH_GAMES) --repeat 5

golden: $(STAMP)
	$(BIN)/python scripts/golden.py

chaos: $(STAMP)
	$(BIN)/python scripts/chaos.py

reports: $(STAMP)
	@set -e; for name in $(REPORT_SCENARIOS); do \
		echo "== $$name"; \
		$(BIN)/uno-stats run scenarios/$$name.yaml --out results --quiet --fresh; \
		$(BIN)/uno-stats report results/$$name --out reports/$$name; \
	done
	@set -e; for name in $(STACKING); do \
		$(BIN)/uno-stats run scenarios/$$name.yaml --out results --quiet --fresh; \
	done
	$(BIN)/uno-stats report $(addprefix results/,$(STACKING)) --out reports/stacking \
		--title "Does stacking make rounds drag on?"
	$(BIN)/uno-stats report $(addprefix results/,$(ACTION_CARDS)) --out reports/action-cards \
		--title "How much of UNO is the action cards?"
	@set -e; for name in $(TOURNAMENTS); do \
		$(BIN)/uno-stats run scenarios/$$name.yaml --out results --quiet --fresh; \
	done
	$(BIN)/uno-stats report $(addprefix results/,$(TOURNAMENTS)) --out reports/skill-vs-luck \
		--title "Skill or luck? The best and worst strategy under each preset"
	@set -e; for name in $(HOUSE_RULES); do \
		echo "== $$name"; \
		$(BIN)/uno-stats run scenarios/$$name.yaml --out results --quiet --fresh; \
		$(BIN)/uno-stats report results/$$name --out reports/$$name; \
	done

clean:
	rm -rf results build dist .pytest_cache .ruff_cache .hypothesis *.egg-info
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
