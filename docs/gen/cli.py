"""Writes the command-line reference (reference/cli.md) from the parser the `borabora` command uses
(borabora_sim.cli.build_parser): the help of the command and of each subcommand, as the terminal shows it."""

from __future__ import annotations

import argparse
import os

import mkdocs_gen_files

from borabora_sim.cli import build_parser

WIDTH = "80"           # argparse wraps help to the terminal's width: a fixed one gives the same page everywhere


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subcommands of `parser` by name, in the order the parser lists them."""
    commands: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            commands.update(action.choices)
    return commands


def help_text(parser: argparse.ArgumentParser) -> str:
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        return parser.format_help()
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


parser = build_parser()
lines = [
    "# Command line: `borabora`\n",
    "The `borabora` command is installed with the package (`python -m borabora_sim` runs the same). This page is "
    "generated from its argument parser when the site is built.\n",
    "```text\n" + help_text(parser) + "```\n",
]
for name, command in subcommands(parser).items():
    lines += [f"## `borabora {name}`\n", "```text\n" + help_text(command) + "```\n"]

with mkdocs_gen_files.open("reference/cli.md", "w") as page:
    page.write("\n".join(lines))
