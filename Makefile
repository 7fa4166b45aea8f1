# uno-stats: everyday commands. The first target that needs the venv creates it.
#   make install      create .venv, install, compile the engine once (so the first run is warm)
#   make run          simulate the Mattel 2022 four-player table; ends with three commands to try next
#   make test         the whole test suite (make test-fast: without the slow statistical tests)
#   make lint         ruff check + ruff format --check + mypy
#   make coverage     branch coverage of the fast tests, the engine through its uncompiled twin
#                     (CI; fails below the floor in pyproject.toml); make mutation: not in CI
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
# UNO Show 'Em No Mercy (issue 25): against classic UNO at 2, 4 and 6 players (one sweep over
# the preset and the players, reported as reports/no-mercy), stacking on and off (one
# report), and each No Mercy rule alone (a full factorial, its report opens with its effects).
NO_MERCY_STACKING := no-mercy-stacking-off no-mercy-stacking-on
# How much of UNO is skill: one seat played by random, basic and search on the same deals
# (tables of random and of basic players at 2, 4 and 6; house rules at 4; search's rollouts;
# search with and without a model of its opponents; classic UNO against No Mercy), reported
# together. The search runs take minutes: their wall times are in the report's Runs.
SKILL := skill-random-table skill-basic-table skill-house-rules skill-rollouts \
	skill-model-random-2p skill-model-basic-2p skill-model-random-4p skill-no-mercy
# Which house rule matters most: the 15-rule screen (a resolution V fraction, 256 points) and
# the full factorial of five rules at 2, 4 and 6 players; each report opens with its effects.
HOUSE_RULES := house-rules-screen house-rules-five
# Rounds per measurement of `make bench` (memory runs use 10x and 1/10 of it).
BENCH_GAMES ?= 1000000
# The C loop `make bench` times as a yardstick (bench --yardstick PATH), when it exists.
YARDSTICK ?= $(wildcard ../shared/limit/uno_c.c)
# Serial pytest is faster than -n 2 on this 2-core machine (see README "Development").
PYTEST ?= $(BIN)/pytest

.PHONY: install run test test-fast boundscheck coverage mutation lint bench golden chaos reports clean

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

# The engine indexes arrays without Python's negative wrap-around (no-negative-index-wrap in
# uno_stats/engine/numba_patches.py):
# play the tests once more with numba's bounds checks on, in a cache of their own, so that
# any negative index raises instead of reading outside an array.
boundscheck: $(STAMP)
	NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$(CURDIR)/$(VENV)/numba-boundscheck $(PYTEST) -m "not slow" -p no:cacheprovider

# Branch coverage (coverage.py, [tool.coverage] in pyproject.toml) of the fast tests, then of
# the engine and checker tests once more with NUMBA_DISABLE_JIT=1: compiled engine functions
# run no Python lines, so their branches are measured through the same source run as Python
# (tests/engine/test_uncompiled.py checks that it plays the same games). Left out of that
# second pass: tests of the compiled code itself (test_jit.py, and test_numba_patches.py:
# the patches act on numba's compile), the ones that play thousands of rounds and the
# property tests (minutes in traced Python; search's, with its rollouts, from 5 to 25 minutes
# by the examples drawn). Fails below fail_under.
UNCOMPILED_SKIP := --ignore=tests/engine/test_jit.py --ignore=tests/engine/test_statistics.py \
	--ignore=tests/engine/test_numba_patches.py \
	--ignore=tests/engine/test_properties.py --ignore=tests/engine/test_properties_no_mercy.py \
	--deselect tests/engine/test_deck.py::test_opening_card_and_deal_match_the_counts \
	--deselect tests/engine/test_search.py::test_search_plays_only_legal_moves_under_any_rules \
	--deselect tests/engine/test_simulate.py::test_checkpoints_are_reached_exactly_while_the_round_lasts \
	--deselect tests/engine/test_round_columns.py::test_trace_events_covers_a_match_longer_than_4096_rounds
coverage: $(STAMP)
	rm -f .coverage .coverage.*
	$(BIN)/coverage run -m pytest -m "not slow" -q -p no:cacheprovider
	NUMBA_DISABLE_JIT=1 $(BIN)/coverage run -m pytest tests/engine tests/check -m "not slow" -q \
		-p no:cacheprovider -W ignore::RuntimeWarning $(UNCOMPILED_SKIP)
	$(BIN)/coverage combine -q
	$(BIN)/coverage report

# Mutation testing (mutmut, [tool.mutmut] in pyproject.toml) of the modules listed there; a
# survivor is a small change to the code that no test notices. Not in CI: tens of minutes.
# `mutmut results` lists the survivors, `mutmut show NAME` shows one.
mutation: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,mutation]'
	nice -n 10 $(BIN)/mutmut run --max-children 2
	$(BIN)/python scripts/mutation_score.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: install
	$(BIN)/uno-stats bench --report --games $(BENCH_GAMES) --repeat 5 \
		$(if $(YARDSTICK),--yardstick $(YARDSTICK))

golden: $(STAMP)
	$(BIN)/python scripts/golden.py

chaos: $(STAMP)
	$(BIN)/python scripts/chaos.py

reports: $(STAMP)
	@set -e; for name in $(REPORT_SCENARIOS); do \
		echo "== $$name"; \
		$(BIN)/uno-stats run scenarios/$$name.yaml --out results --quiet --fresh; \
		$(BIN)/uno-stats report results/$$name --out reports/$$name --force; \
	done
	@set -e; for name in $(STACKING); do \
		$(BIN)/uno-stats run scenarios/$$name.yaml --out results --quiet --fresh; \
	done
	$(BIN)/uno-stats report $(addprefix results/,$(STACKING)) --out reports/stacking --force \
		--title "Does stacking make rounds drag on?"
	$(BIN)/uno-stats report $(addprefix results/,$(ACTION_CARDS)) --out reports/action-cards --force \
		--title "How much of UNO is the action cards?"
	@set -e; for name in $(TOURNAMENTS); do \
		$(BIN)/uno-stats run scenarios/$$name.yaml --out results --quiet --fresh; \
	done
	$(BIN)/uno-stats report $(addprefix results/,$(TOURNAMENTS)) --out reports/skill-vs-luck --force \
		--title "Skill or luck? The best and worst strategy under each preset"
	$(BIN)/uno-stats run scenarios/no-mercy-vs-classic.yaml --out results --quiet --fresh
	$(BIN)/uno-stats report results/no-mercy-vs-classic --out reports/no-mercy --force \
		--title "UNO Show 'Em No Mercy against classic UNO at 2, 4 and 6 players"
	@set -e; for name in $(NO_MERCY_STACKING); do \
		$(BIN)/uno-stats run scenarios/$$name.yaml --out results --quiet --fresh; \
	done
	$(BIN)/uno-stats report $(addprefix results/,$(NO_MERCY_STACKING)) \
		--out reports/no-mercy-stacking --force --title "Does stacking Draw Tens make No Mercy longer?"
	@set -e; for name in $(SKILL); do \
		echo "== $$name"; \
		$(BIN)/uno-stats run scenarios/$$name.yaml --out results --quiet --fresh; \
	done
	$(BIN)/uno-stats report $(addprefix results/,$(SKILL)) --out reports/skill --force \
		--title "How much of UNO is skill?"
	@set -e; for name in $(HOUSE_RULES) no-mercy-rules; do \
		echo "== $$name"; \
		$(BIN)/uno-stats run scenarios/$$name.yaml --out results --quiet --fresh; \
		$(BIN)/uno-stats report results/$$name --out reports/$$name --force; \
	done

clean:
	rm -rf results build dist .pytest_cache .ruff_cache .hypothesis *.egg-info
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
