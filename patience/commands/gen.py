"""`patience gen FORMAT DEAL` (also plain `gen`): a deal as a model file for one solver language.

Every parser is built from the generators' option schemas (generators/__init__.py lists them):
the deal's game picks the generator, each schema option is a `--flag`, each SHOW entry a flag
that prints another file of the model, and `-o DIR` writes every file. `--deals SPEC -o DIR`
writes a whole family instead (patience/commands/gen_family.py).
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Mapping
from pathlib import Path

from patience.arguments import Subcommands
from patience.commands import gen_family
from patience.errors import UsageError
from patience.exit_codes import ExitCode
from patience.games import get_game, read_game_deal
from patience.generators import MODEL_LANGUAGES, build, generator
from patience.generators.files import fixed_file_keywords
from patience.names import BLACK_HOLE, FAMILIES, game_option, game_option_help
from patience.options import check_options, option_keywords
from patience.outputs import check_apart, write_files

DESCRIPTION = "Print the model of a deal in one solver language; -o DIR writes every file of the model instead."


def register(subparsers: Subcommands) -> None:
    add_formats(subparsers.add_parser("gen", help=f"generate a model file for a deal ({', '.join(MODEL_LANGUAGES)})",
                                      description=DESCRIPTION))


def add_formats(parser: argparse.ArgumentParser) -> None:
    """One subcommand per model language, its flags made from the generators' option schemas."""
    formats = parser.add_subparsers(dest="format", required=True, metavar="FORMAT")
    for language, games in MODEL_LANGUAGES.items():
        modules = [importlib.import_module(name) for name in games.values()]
        playable = tuple(game for family in games for game in FAMILIES[family])
        sub = formats.add_parser(language, help=modules[0].TITLE,
                                 description=f"{modules[0].TITLE}, for deals of {', '.join(playable)} only (the "
                                             "game is found from the file, or given by --game).")
        sub.add_argument("deal", nargs="?", help="deal file in any known form")
        sub.add_argument("-o", "--output-dir", type=Path, help="write all model files into this folder")
        sub.add_argument("--game", type=game_option(playable), metavar="GAME", help=game_option_help(playable))
        seen: set[str] = set()
        for module in modules:
            for option in module.OPTIONS:
                if option.name not in seen:
                    seen.add(option.name)
                    sub.add_argument(f"--{option.name}", metavar=option.metavar, help=option.explain())
            for flag, file in module.SHOW.items():
                if flag not in seen:
                    seen.add(flag)
                    sub.add_argument(f"--{flag}", action="store_true", help=f"print {file} instead")
        gen_family.add_arguments(sub)
        sub.set_defaults(handler=run, option_names=sorted(seen))


def run(args: argparse.Namespace) -> int:
    language = args.format
    given = {name: getattr(args, name.replace("-", "_")) for name in args.option_names}
    if args.deals is not None:
        return gen_family.run(args, given)
    if args.deal is None:
        return print_fixed_file(language, args.game or BLACK_HOLE, given, args.output_dir)
    game, deal = read_game_deal(args.deal, args.game)
    module = generator(language, game.name)
    shown = chosen_file(module, language, game.name, given)
    model = build(language, game.name, deal, _option_values(given))
    if args.output_dir is not None:
        for name in model.files:
            check_apart(args.output_dir / name, [args.deal])
    return emit(model.files, shown or model.primary, args.output_dir)


def chosen_file(module, language: str, game: str, given: Mapping[str, object]) -> str | None:
    """The file a SHOW flag asks for (None: the primary file)."""
    flags = [flag for flag, value in given.items() if value is True]
    unknown = [flag for flag in flags if flag not in module.SHOW]
    if unknown:
        raise UsageError(f"gen {language} has no --{unknown[0]} for {game} deals")
    return module.SHOW[flags[0]] if flags else None


def _option_values(given: Mapping[str, object]) -> dict[str, str]:
    """The schema options given on the command line (SHOW flags are booleans, options text)."""
    return {name: value for name, value in given.items() if isinstance(value, str)}


def print_fixed_file(language: str, game: str, given: Mapping[str, object], output_dir: Path | None) -> int:
    """`gen pddl --domain`, `gen eprime --model`: a file that needs no deal."""
    module = generator(language, get_game(game).name)
    shown = chosen_file(module, language, game, given)
    if shown is None or output_dir is not None:
        flags = " or ".join(f"--{flag}" for flag in module.SHOW) or "nothing"
        raise UsageError(f"gen {language} needs a DEAL (only {flags} prints without one)")
    options = check_options(module.OPTIONS, _option_values(given), f"gen {language} ({game})")
    files = module.fixed_files(**fixed_file_keywords(module, option_keywords(options)))
    print(files[shown], end="")
    return ExitCode.SOLVED


def emit(files: Mapping[str, str], primary: str, output_dir: Path | None) -> int:
    """Print the primary file, or write every file into `output_dir` and list them."""
    if output_dir is None:
        print(files[primary], end="")
        return ExitCode.SOLVED
    print("\n".join(map(str, write_files(output_dir, files))))
    return ExitCode.SOLVED
