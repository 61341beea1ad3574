"""`patience compare` and `patience.compare` run their campaign through one function, as `patience
survey` and `patience.survey` run their survey (patience.campaign.run.run_campaign,
patience.survey.run.run_survey), with the same deals, configurations and limits for the same ask."""

from __future__ import annotations

from pathlib import Path

import pytest

import patience
from patience import cli
from patience.campaign import run as campaign_run
from patience.campaign.run import Campaign
from patience.commands import compare as compare_command
from patience.commands import survey as survey_command
from patience.survey import run as survey_run


class Ran(Exception):
    """Raised by a stand-in once it has heard its call: nothing runs."""


def test_compare_and_patience_compare_assemble_one_campaign(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[tuple[tuple, dict]] = []

    def heard(*args: object, **kwargs: object) -> Campaign:
        calls.append((args, kwargs))
        return Campaign(3, 0, 3, [])

    monkeypatch.setattr(compare_command, "run_campaign", heard)
    monkeypatch.setattr(campaign_run, "run_campaign", heard)
    db = tmp_path / "c.sqlite"
    assert cli.main(["compare", "--deals", "black_hole:1-3", "--solvers", "native", "--timeout", "5", "--jobs", "2",
                     "--seed", "3", "--retry-errors", "--db", str(db), "--quiet"]) == 0
    assert capsys.readouterr().out == f"{db}: 3 of 3 runs stored (3 new), 0 contradicting verdicts\n"
    frame = patience.compare("black_hole:1-3", "native", timeout=5, jobs=2, store=db, seed=3, retry_errors=True)
    assert frame.empty  # the stand-in stored nothing
    (command_args, command_kwargs), (api_args, api_kwargs) = calls
    deals, configurations, limits, where = command_args
    names = [f"black_hole:{number}" for number in (1, 2, 3)]
    assert [item.name for item in deals] == [item.name for item in api_args[0]] == names
    assert configurations == api_args[1] and limits == api_args[2] and Path(where) == api_args[3] == db
    for key in ("jobs", "seed", "retry_errors"):
        assert command_kwargs[key] == api_kwargs[key], key


def test_survey_and_patience_survey_assemble_one_survey(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[tuple[tuple, dict]] = []

    def heard(*args: object, **kwargs: object) -> tuple[int, int]:
        calls.append((args, kwargs))
        if len(calls) > 1:
            raise Ran  # the API reads the store back next: there is none
        return 0, 5

    monkeypatch.setattr(survey_command, "run_survey", heard)
    monkeypatch.setattr(survey_run, "run_survey", heard)
    db = tmp_path / "s.sqlite"
    assert cli.main(["survey", "--game", "all_in_a_row", "--seeds", "1-5", "--timeout", "4", "--nodes", "900",
                     "--jobs", "2", "--batch", "2", "--certify", "--db", str(db), "--quiet"]) == 0
    assert capsys.readouterr().out == f"{db}: 5 of 5 all_in_a_row deals stored (5 new)\n"
    with pytest.raises(Ran):
        patience.survey("all_in_a_row", range(1, 6), timeout=4, nodes=900, jobs=2, batch=2, store=db, certify=True)
    (command_args, command_kwargs), (api_args, api_kwargs) = calls
    assert command_args == api_args  # path, game, numbering, shape, seeds, mode, seconds, nodes, batch
    for key in ("jobs", "cluster", "certify"):
        assert command_kwargs[key] == api_kwargs[key], key
