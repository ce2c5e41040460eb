"""The ``sotalib`` command line.

Each subcommand lives in its own module of this package and provides
``register(subparsers)``, which adds its parser and sets ``run`` (a function of
the parsed arguments returning the exit code).  Conventions shared by all
subcommands:

* ``--json`` prints one JSON object (never NaN: missing values are ``null``);
* bad input -- an option out of range, an unreadable file -- prints a single
  line ``sotalib CMD: error: ...`` on stderr and exits with code 2; numeric
  options are parsed once, by the typed parsers of :mod:`sotalib.cli._types`
  (name, range, the text as typed), before any work starts;
* a request whose arrays cannot fit in memory is refused up front with the
  size it would need (:func:`sotalib._validate.check_memory`; the limit is
  half the machine's memory or ``SOTALIB_MEMORY_LIMIT``), exit code 2; an
  allocation that fails anyway is one line, never a traceback;
* long loops draw a progress bar on stderr only when it is a terminal, never
  with ``--json``;
* a well-posed question without an answer (e.g. no shrinkage weight solves
  the equation) raises :class:`NoSolution`: exit code 3, a one-line
  explanation, and with ``--json`` an object carrying a ``reason``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys

from .._json import json_safe

__all__ = ["main", "CliError", "NoSolution", "emit"]

#: Subcommand modules, in the order they appear in ``sotalib --help``.
COMMANDS = ("maxdist", "sota", "auc-max", "check", "rank", "testsize", "compare", "rank-uncertainty", "datasets")


class CliError(Exception):
    """Invalid command-line input (exit code 2)."""


class NoSolution(Exception):
    """The question has no answer for these data (exit code 3).

    ``payload`` is printed as JSON with ``--json``.
    """

    def __init__(self, reason: str, payload: dict | None = None):
        super().__init__(reason)
        self.reason = reason
        self.payload = dict(payload or {})


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one line on stderr and exit code 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        # "argument --n: --n must be ..." (from sotalib.cli._types) reads "--n must be ..."
        m = re.match(r"argument ([-\w/]+): (\1 .*)", message, flags=re.S)
        if m:
            message = m.group(2)
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")


def emit(args: argparse.Namespace, payload: dict, text: str) -> None:
    """Print ``payload`` as JSON with ``--json``, else the human-readable ``text``."""
    if getattr(args, "json", False):
        print(json.dumps(json_safe(payload), allow_nan=False))
    else:
        print(text)


class _Version(argparse.Action):
    """``--version``: reads the installed version only when asked (start-up stays fast)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from .._version import __version__

        parser.exit(0, f"sotalib {__version__}\n")


def build_parser() -> argparse.ArgumentParser:
    """The ``sotalib`` argument parser; each command module registers its subparser.

    Command modules import only the standard library at module level, so that
    ``sotalib --help`` loads neither NumPy, SciPy, Numba nor pandas.
    """
    parser = _Parser(
        prog="sotalib", description="What is the state of the art? Tools for reading leaderboards honestly."
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name.replace('-', '_')}").register(sub)
    parser.set_defaults(_commands=sub.choices)
    return parser


def _option_names(parser: argparse.ArgumentParser) -> dict[str, str]:
    """``{parameter: option}`` of one command: ``n -> --n``, ``score_column -> --score-column``, ``rng -> --seed``."""
    names = {}
    for action in parser._actions:
        longs = [s for s in action.option_strings if s.startswith("--")]
        if longs and action.dest not in ("help", "json"):
            names[action.dest] = longs[0]
    if "seed" in names:
        names["rng"] = names["seed"]  # the library's one randomness argument is the command's --seed
    return names


def in_option_terms(message: str, options: dict[str, str]) -> str:
    """A library error message in the command line's terms.

    The library names its parameters (``n must be an integer >= 1``,
    ``method 'abc' is not available for metric='auc'``); the command line
    checks each option once, by calling the library, and reports the
    option instead: ``--n must be ...``, ``--method abc is not available
    for --metric auc``.  Only a leading parameter name and ``name='value'``
    or ``name 'value'`` are rewritten, so file names and prose stay as they are.
    """
    for dest, option in options.items():
        message = re.sub(rf"(?<![-\w]){re.escape(dest)} ?=? ?'([^']*)'", rf"{option} \1", message)
        message = re.sub(rf"(?<![-\w]){re.escape(dest)}(?= in [\[(])", option, message)
        message = re.sub(rf"(?<![-\w.]){re.escape(dest)}=([-+]?[0-9][0-9.eE+-]*)(?![\w])", rf"{option} \1", message)
    lead = re.match(r"([A-Za-z_]\w*)(?=[ :])", message)
    if lead and lead.group(1) in options:
        message = options[lead.group(1)] + message[lead.end() :]
    return message


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``sotalib`` console script."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: usage errors (2), --help and --version (0)
        return int(exc.code or 0)
    prog = f"sotalib {args.command}"
    for action in args._commands[args.command]._actions:
        # argparse reads "--opt=--" as an empty list without calling the option's type
        if (
            isinstance(action, argparse._StoreAction)
            and action.nargs is None
            and action.default != []
            and getattr(args, action.dest, None) == []
        ):
            print(f"{prog}: error: {action.option_strings[-1]} expects one value, got '--'", file=sys.stderr)
            return 2
    try:
        return int(args.run(args) or 0)
    except NoSolution as exc:
        if getattr(args, "json", False):
            print(json.dumps(json_safe({**exc.payload, "reason": exc.reason}), allow_nan=False))
        print(f"{prog}: no solution: {_one_line(exc)}", file=sys.stderr)
        return 3
    except UnicodeDecodeError as exc:  # a reader that did not say which file: name the command's input files
        files = [
            str(getattr(args, a.dest))
            for a in args._commands[args.command]._actions
            if a.metavar and "FILE" in str(a.metavar) and getattr(args, a.dest, None)
        ]
        where = f"{' or '.join(files)}: " if files else ""
        print(
            f"{prog}: error: {where}not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}); "
            "save the file as UTF-8 (CSV UTF-8 in a spreadsheet) and try again",
            file=sys.stderr,
        )
        return 2
    except ValueError as exc:
        message = in_option_terms(_one_line(exc), _option_names(args._commands[args.command]))
        print(f"{prog}: error: {message}", file=sys.stderr)
        return 2
    except (CliError, OSError) as exc:
        print(f"{prog}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except MemoryError as exc:  # the last resort: requests that can be sized are refused up front
        print(
            f"{prog}: error: not enough memory for this request ({_one_line(exc)}); "
            "try a smaller problem (fewer items, classifiers or replications)",
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
