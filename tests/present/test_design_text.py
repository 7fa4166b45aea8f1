"""A sweep's design in words (uno_stats.present.design_text): what validate prints."""

from __future__ import annotations

from uno_stats.present.design_text import alias_lines, design_lines, fractional_lines
from uno_stats.scenario.designs import defining_words

TOGGLES = [
    "rules.jump_in",
    "rules.seven_zero",
    "rules.stack_draw_two",
    "rules.draw",
    "rules.no_action_finish",
    "rules.drawn_card",
    "rules.deflect",
]


def test_resolution_iv_lines_name_the_design_and_each_alias_chain_once() -> None:
    lines = fractional_lines(TOGGLES, 4)
    assert lines[0] == (
        "design: 2^(7-3) fractional factorial, 16 of the 128 points, resolution IV (asked: 4)"
    )
    text = "\n".join(lines)
    assert "generators: E=ABC, F=BCD, G=ACD" in text
    assert "defining relation: I = ABCE = ABFG = ACDG = ADEF = BCDF = BDEG = CEFG" in text
    assert "every main effect is clear of main effects and two-factor interactions" in text
    chains = [line for line in lines if line.startswith("    rules.")]
    assert len(chains) == 7  # 21 two-factor interactions in 7 chains of 3
    joined = " ".join(line.strip() for line in lines)
    assert (
        "rules.jump_in:rules.seven_zero = rules.stack_draw_two:rules.no_action_finish = "
        "rules.drawn_card:rules.deflect"
    ) in joined
    assert all(len(line) <= 100 for line in lines)


def test_resolution_iii_lists_main_effects_with_their_aliases() -> None:
    lines = alias_lines(list("ABCDEFG"), defining_words(("D=AB", "E=AC", "F=BC", "G=ABC")))
    assert "    A = B:D = C:E = F:G" in lines
    assert not any("clear main effects" in line for line in lines)


def test_resolution_v_with_fifteen_factors_fits_100_columns() -> None:
    factors = [f"rules.rule_number_{i}" for i in range(15)]
    lines = fractional_lines(factors, 5)
    assert lines[0].startswith("design: 2^(15-7) fractional factorial, 256 of the 32,768")
    text = "\n".join(lines)
    assert "defining relation: 127 words (15 of length 5," in text
    assert "every two-factor interaction is clear of main effects and the other" in text
    assert all(len(line) <= 100 for line in lines)


def test_full_and_random_designs() -> None:
    sweep = {"players": [2, 3, 4], "rules.jump_in": [False, True]}
    assert design_lines(sweep, None) == []
    random = {"type": "random", "points": 4, "seed": 3}
    assert design_lines(sweep, random) == [
        "design: random (Latin hypercube), 4 of the 6 points, drawn from seed 3"
    ]
    assert fractional_lines(["a", "b"], 5)[0].startswith("design: 2^2 (the full factorial")
