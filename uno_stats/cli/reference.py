"""The command-line reference (docs/CLI.md), generated from the typer app itself."""

from __future__ import annotations

from typing import Any

import typer


def _default(param: Any) -> str:
    if getattr(param, "is_flag", False) or param.default in (None, False):
        return ""
    value = param.default
    return "" if value is None or callable(value) else f"`{value}`"


def cli_reference() -> str:
    """Markdown: every command with its summary, arguments and options."""
    from uno_stats.cli import app

    group: Any = typer.main.get_command(app)  # typer's own (vendored) click Group
    ctx = typer.Context(group, info_name="uno-stats")
    lines = [
        "# uno-stats command reference",
        "",
        "Generated from the CLI by `python -m uno_stats.cli.reference > docs/CLI.md`;",
        "a test keeps it current. `uno-stats COMMAND --help` prints the same.",
        "",
    ]
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        usage = " ".join(command.collect_usage_pieces(ctx))
        lines += [
            f"## `uno-stats {name}`",
            "",
            (command.help or "").strip(),
            "",
            f"Usage: `uno-stats {name} {usage}`",
            "",
        ]
        rows = []
        for param in command.params:
            if param.param_type_name == "argument":
                text = (getattr(param, "help", None) or "").strip()
                rows.append((f"`{param.name.upper()}`", f"argument. {text}".strip(" ."), ""))
            elif "--help" not in param.opts:
                names = ", ".join(f"`{o}`" for o in param.opts)
                rows.append((names, (param.help or "").strip(), _default(param)))
        if rows:
            lines += ["| name | meaning | default |", "|---|---|---|"]
            lines += [f"| {n} | {h} | {d} |" for n, h, d in rows]
            lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(cli_reference())
