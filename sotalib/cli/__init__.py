"""The ``sotalib`` command line.

Each subcommand lives in its own module of this package and provides
``register(subparsers)``, which adds its parser and sets ``run`` (a function of
the parsed arguments returning the exit code).  Conventions shared by all
subcommands:

* ``--json`` prints one JSON object (never NaN: missing values are ``null``);
* bad input -- an option out of range, an unreadable file -- prints a single
  line ``sotalib CMD: error: ...`` on stderr and exits with code 2; numeric
  options are parsed once, by the typed parsers of :mod:`sotalib.cli._types`
  (name, range, the text as typed), before any work starts; a library
  function checks the rest, and its message is put in the command's terms
  by :data:`PARAMETER_OPTIONS` (``n_resamples must be ...`` reads
  ``--reps must be ...``); a user's file is named with the line and column at
  fault (:class:`sotalib._io.InputError`, printed as it is);
* a request whose arrays cannot fit in memory is refused up front with the
  size it would need (:func:`sotalib._validate.check_memory`; the limit is
  half the machine's memory or ``SOTALIB_MEMORY_LIMIT``), exit code 2; an
  allocation that fails anyway is one line, never a traceback;
* long loops draw a progress bar on stderr only when it is a terminal, never
  with ``--json``;
* a well-posed question without an answer (e.g. no shrinkage weight solves
  the equation) raises :class:`NoSolution`: exit code 3 and a one-line
  explanation;
* Ctrl-C ends a command with one line ``sotalib CMD: interrupted`` and exit
  code 130 (128 + SIGINT), never a traceback; output piped into a command
  that stops reading (``| head``) ends quietly with exit code 141
  (128 + SIGPIPE), as a shell reports for programs stopped by the broken pipe.

With ``--json`` every outcome is one JSON object on standard output, so a
script reads standard output and never has to parse stderr (the one line on
stderr is printed as well):

* an answer (exit code 0): the command's result, ``to_dict()`` of the
  library's result;
* an error (exit code 2): ``{"error": MESSAGE, "exit_code": 2}``, where
  MESSAGE is the stderr line after ``error: ``; when a user's file is at
  fault, also ``"file"``, ``"line"`` and ``"column"`` (``null`` when not
  known; ``column`` is the header name, or the number counted from 1);
* no answer (exit code 3): the command's result as far as it goes, with
  ``"reason"`` (the explanation) and ``"exit_code": 3``.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import re
import sys

from .._errors import NoSolutionError
from .._interrupt import SigintGuard
from .._io import InputError
from .._json import json_safe

__all__ = ["main", "CliError", "NoSolution", "emit", "call", "refuse_unused", "typed", "PARAMETER_OPTIONS"]

#: Subcommand modules, in the order they appear in ``sotalib --help``.
COMMANDS = (
    "maxdist",
    "sota",
    "auc-max",
    "check",
    "rank",
    "testsize",
    "compare",
    "rank-uncertainty",
    "dependence",
    "datasets",
    "errorbars",
)


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


class _UsageError(SystemExit):
    """argparse's refusal of a command line (exit code 2), carrying its one-line message."""

    def __init__(self, message: str):
        super().__init__(2)
        self.message = message


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one line on stderr and exit code 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        # "argument --n: --n must be ..." (from sotalib.cli._types) reads "--n must be ..."
        m = re.match(r"argument ([-\w/]+): (\1 .*)", message, flags=re.S)
        if m:
            message = m.group(2)
        message = " ".join(message.split())
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise _UsageError(message)


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

    def __call__(self, parser, _namespace, _values, _option_string=None):
        from .._version import __version__

        print(f"sotalib {__version__}")  # on stdout, as argparse's own version action prints
        parser.exit(0)


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


#: For each command, the library's parameter names and the options that set them.  The command line
#: checks most options by calling the library; its messages name parameters (``n_resamples must be an
#: integer >= 1``), which :func:`in_option_terms` reports as the command's options (``--reps must be ...``).
#: The retired spellings (``reps``, ``seed``) stay listed until every command calls the library by the new
#: names.  A test checks that every option named here exists.
PARAMETER_OPTIONS: dict[str, dict[str, str]] = {
    "maxdist": {
        "n": "--n",
        "m": "--m",
        "theta": "--theta",
        "alpha": "--alpha",
        "rho": "--rho",
        "theta0": "--theta0",
        "y0": "--y0",
        "spread": "--spread",
        "engine": "--engine",
        "n_resamples": "--reps",
        "reps": "--reps",
        "rng": "--seed",
        "seed": "--seed",
    },
    "sota": {
        "score_column": "--score-column",
        "scale": "--scale",
        "n": "--n",
        "metric": "--metric",
        "classes": "--classes",
        "chance": "--chance",
        "prevalence": "--prevalence",
        "rho": "--rho",
        "method": "--method",
        "target": "--target",
        "engine": "--engine",
        "rng": "--seed",
        "seed": "--seed",
    },
    "auc-max": {
        "auc": "--auc",
        "n": "--n",
        "m": "--m",
        "prevalence": "--prevalence",
        "rho": "--rho",
        "alpha": "--alpha",
        "n_resamples": "--reps",
        "reps": "--reps",
        "rng": "--seed",
        "seed": "--seed",
    },
    "check": {
        "batch": "--batch",  # the batch reader's messages begin "batch file NAME ..."
        "p": "--p",
        "n": "--n",
        "dataset": "--dataset",
        "score": "--score",
        "scores": "--score",
        "eps": "--eps",
        "decimals": "--decimals",
        "rounding": "--rounding",
        "folds": "--folds",
        "folds_file": "--folds-file",
        "k": "--k",
        "stratified": "--stratified",
        "repeats": "--repeats",
        "aggregation": "--aggregation",
        "classes": "--classes",
        "average": "--average",
        "beta": "--beta",
        "zero_division": "--zero-division",
        "engine": "--engine",
        "diagnosis": "--no-diagnosis",
        "task": "--task",
        "target_var": "--target-var",
        "fold_min": "--fold-min",
        "fold_max": "--fold-max",
        "n_items": "--items",
        "samples": "--samples",
        "pass_at": "--pass-at",
        "subsets": "--subset",
        "subset_scores": "--subset-score",
    },
    "rank": {"method": "--method", "lower_is_better": "--lower-is-better", "rng": "--seed", "seed": "--seed"},
    "testsize": {
        "error": "--error",
        "sd": "--sd",
        "confidence": "--confidence",
        "z": "--z",
        "precision": "--precision",
        "difference": "--difference",
        "corr": "--corr",
        "power": "--power",
        "items": "--items",
    },
    "compare": {"alpha": "--alpha", "lower_is_better": "--lower-is-better"},
    "rank-uncertainty": {
        "lower_is_better": "--lower-is-better",
        "alpha": "--alpha",
        "n_resamples": "--reps",
        "reps": "--reps",
        "rng": "--rng",
    },
    "dependence": {
        "alpha": "--alpha",
        "n_resamples": "--reps",
        "rng": "--seed",
        "correct": "--per-item",
    },
    "datasets": {},
    "errorbars": {"alpha": "--alpha", "clusters": "--clusters", "pairs": "--pairs", "pairs_file": "--pairs-file"},
}


#: For each command, how the library names a user's file in its messages, and the option that gave it.
FILE_OPTIONS: dict[str, dict[str, str]] = {"check": {"folds file": "--folds-file", "batch file": "--batch"}}


def _options(command: str, parameters) -> str:
    """The options that set ``parameters`` (library names), as the command line spells them."""
    names = PARAMETER_OPTIONS.get(command, {})
    return ", ".join(names.get(name, "--" + name.replace("_", "-")) for name in parameters)


def call(command: str, func, kind: str, *args, **given):
    """``func(*args, **given)``, where ``given`` holds the options typed on the command line.

    Every option given reaches the library function as the parameter of the
    same name, so the library decides every range and which options go
    together; an option the function does not take is refused (exit code 2)
    rather than ignored: ``--average does not apply to a binary report``.
    ``kind`` names what the function answers.  A ``progress`` keyword is
    passed only to functions that take one.
    """
    params = inspect.signature(func).parameters
    if "progress" in given and "progress" not in params:
        del given["progress"]
    extra = [name for name in given if name not in params]
    if extra:
        raise CliError(f"{_options(command, extra)} {'does' if len(extra) == 1 else 'do'} not apply to {kind}")
    missing = [
        name
        for name, param in list(params.items())[len(args) :]
        if param.default is param.empty and param.kind != param.VAR_KEYWORD and name not in given
    ]
    if missing:
        raise CliError(f"{_options(command, missing)} {'is' if len(missing) == 1 else 'are'} required for {kind}")
    return func(*args, **given)


def refuse_unused(command: str, given: dict, unused, mode: str) -> None:
    """Refuse every option of ``given`` whose parameter is in ``unused``: it does not apply in ``mode``.

    One library function may answer a command in several modes, and a mode
    may leave some of its parameters unused (``sota --method deconvolve``
    computes no distribution of the maximum, so it has no engine).  Each
    command declares, per mode, the options it leaves unused, and one given
    there is refused (exit code 2) rather than ignored, naming the option,
    its value when it is a word, and the mode: ``--engine normal does not
    apply to --method deconvolve``.
    """
    extra = [name for name in given if name in unused]
    if not extra:
        return
    shown = ", ".join(
        _options(command, [name]) + (f" {given[name]}" if isinstance(given[name], str) else "") for name in extra
    )
    raise CliError(f"{shown} {'does' if len(extra) == 1 else 'do'} not apply to {mode}")


def typed(args: argparse.Namespace) -> dict:
    """The options typed on the command line, by parameter name (``argparse.SUPPRESS`` leaves out the rest).

    ``--json`` is the command line's own and is left out as well.
    """
    return {k: v for k, v in vars(args).items() if k not in ("command", "run", "_commands", "json")}


def in_option_terms(message: str, options: dict[str, str], parameters: tuple[str, ...] = ()) -> str:
    """A library error message in the command line's terms.

    The library names its parameters (``n must be an integer >= 1``,
    ``method 'abc' is not available for metric='auc'``); the command line
    checks each option once, by calling the library, and reports the
    option instead: ``--n must be ...``, ``--method abc is not available
    for --metric auc``.  ``options`` maps parameters to options (one entry
    of :data:`PARAMETER_OPTIONS`).  Only a leading parameter name and
    ``name='value'`` or ``name 'value'`` are rewritten, so file names and
    prose stay as they are; and, anywhere in the message, the ``parameters``
    that a rule about several of them names (``ParameterError.parameters``):
    ``give exactly one of eps and decimals`` reads ``give exactly one of
    --eps and --decimals``.
    """
    for dest, option in options.items():
        message = re.sub(rf"(?<![-\w]){re.escape(dest)} ?=? ?'([^']*)'", rf"{option} \1", message)
        message = re.sub(rf"(?<![-\w]){re.escape(dest)}(?= in [\[(])", option, message)
        message = re.sub(rf"(?<![-\w.]){re.escape(dest)}=([-+]?[0-9][0-9.eE+-]*)(?![\w])", rf"{option} \1", message)
    for dest in parameters:  # a rule about several parameters names them anywhere in its message
        if dest in options:
            message = re.sub(rf"(?<![-\w'\"]){re.escape(dest)}(?![-\w'\"])", options[dest], message)
    lead = re.match(r"([A-Za-z_]\w*)(?=[ :])", message)
    if lead and lead.group(1) in options:
        message = options[lead.group(1)] + message[lead.end() :]
    return message


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _wants_json(argv: list[str]) -> bool:
    """Whether the command line asks for ``--json`` (read before argparse, whose errors come first)."""
    for token in argv:
        if token == "--":
            return False
        if token == "--json" or (len(token) > 3 and "--json".startswith(token)):  # argparse takes prefixes
            return True
    return False


def _refuse(prog: str, message: str, as_json: bool, code: int = 2, **where) -> int:
    """Exit code ``code`` with one line on stderr, and with ``--json`` one JSON object on stdout."""
    if as_json:
        print(json.dumps(json_safe({"error": message, "exit_code": code, **where}), allow_nan=False))
    print(f"{prog}: error: {message}", file=sys.stderr)
    return code


def _quiet_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so that Python's final flush raises nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor (e.g. captured output)
        pass


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``sotalib`` console script."""
    whole_process = argv is None  # the console script or ``python -m sotalib``, not a caller in Python
    argv = sys.argv[1:] if argv is None else list(argv)
    as_json = _wants_json(argv)
    prog = ["sotalib"]  # the command's name once parsed, for the line that reports Ctrl-C
    reported: list[bool] = []

    def interrupted() -> int:
        if not reported:
            reported.append(True)
            print(f"{prog[0]}: interrupted", file=sys.stderr)
        sys.stderr.flush()
        return 130

    # Ctrl-C that a compiler swallows (the work then goes on) still ends the process, a second later
    with SigintGuard(_INTERRUPT_GRACE, interrupted) as guard:
        try:
            parser = build_parser()
            try:
                args = parser.parse_args(argv)
            except _UsageError as exc:  # one line on stderr already
                if as_json:
                    print(json.dumps({"error": exc.message, "exit_code": 2}))
                return 2
            except SystemExit as exc:  # --help and --version (0)
                return int(exc.code or 0)
            prog[0] = f"sotalib {args.command}"
            as_json = bool(getattr(args, "json", False))
            code = _run(args, prog[0], as_json)
            sys.stdout.flush()  # a broken pipe shows here, not at interpreter exit
            return code
        except BrokenPipeError:
            _quiet_stdout()
            return 141
        except BaseException as exc:
            # after Ctrl-C, whatever fails failed because of it (Numba may report the interrupt as a chain of
            # SystemErrors, or as a RuntimeError about a kernel it did not finish compiling)
            if guard.received is None and not isinstance(exc, KeyboardInterrupt):
                raise
            interrupted()
            from .._interrupt import ABANDONED

            if whole_process or any(worker.is_alive() for worker in ABANDONED):
                # end the process now: a compiled kernel may still run in a worker thread that cannot be
                # stopped (the interpreter would wait for it), and LLVM objects a compilation left half made
                # print errors when the interpreter collects them ("Exception ignored in ObjectRef.__del__")
                try:
                    sys.stdout.flush()
                finally:
                    os._exit(130)
            return 130


#: Seconds from Ctrl-C to the end of the process when the interrupt is lost (see ``SigintGuard``).
_INTERRUPT_GRACE = 1.0


def _run(args: argparse.Namespace, prog: str, as_json: bool) -> int:
    """Run the parsed command; every failure is one line on stderr (and one JSON object with ``--json``)."""
    for action in args._commands[args.command]._actions:
        # argparse reads "--opt=--" as an empty list without calling the option's type
        if (
            isinstance(action, argparse._StoreAction)
            and action.nargs is None
            and action.default != []
            and getattr(args, action.dest, None) == []
        ):
            return _refuse(prog, f"{action.option_strings[-1]} expects one value, got '--'", as_json)
    try:
        return int(args.run(args) or 0)
    except BrokenPipeError:  # an OSError, but no error of the input: main ends quietly
        raise
    except NoSolution as exc:
        if as_json:
            print(json.dumps(json_safe({**exc.payload, "reason": exc.reason, "exit_code": 3}), allow_nan=False))
        print(f"{prog}: no solution: {_one_line(exc)}", file=sys.stderr)
        return 3
    except NoSolutionError as exc:  # valid input without an answer: exit 3 with the reason
        message = in_option_terms(_one_line(exc), PARAMETER_OPTIONS.get(args.command, {}))
        if as_json:
            print(json.dumps({"reason": message, "exit_code": 3}))
        print(f"{prog}: no solution: {message}", file=sys.stderr)
        return 3
    except InputError as exc:  # a user's file: the message names it, the line and the column
        where = {"file": exc.path, "line": exc.line, "column": exc.column}
        message = _one_line(exc)
        for label, option in FILE_OPTIONS.get(args.command, {}).items():
            if message.startswith(label + " "):
                message = option + message[len(label) :]
        return _refuse(prog, message, as_json, **where)
    except ValueError as exc:
        options = PARAMETER_OPTIONS.get(args.command, {})
        message = in_option_terms(_one_line(exc), options, getattr(exc, "parameters", ()))
        return _refuse(prog, message, as_json)
    except (CliError, OSError) as exc:
        return _refuse(prog, _one_line(exc), as_json)
    except MemoryError as exc:  # the last resort: requests that can be sized are refused up front
        return _refuse(
            prog,
            f"not enough memory for this request ({_one_line(exc)}); "
            "try a smaller problem (fewer items, classifiers or replications)",
            as_json,
        )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
