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
    db, experiment = tmp_path / "c.sqlite", tmp_path / "certified.yaml"
    experiment.write_text("certify: true\n", encoding="utf-8")  # the file's key; the API's certify=True
    scheduler = "tcp://127.0.0.1:8786"  # never reached: the stand-in hears the call before any runner is made
    for certify in (False, True):
        calls.clear()
        given = ["--experiment", str(experiment)] if certify else []
        assert cli.main(["compare", *given, "--deals", "black_hole:1-3", "--solvers", "native", "--timeout", "5",
                         "--jobs", "2", "--seed", "3", "--retry-errors", "--scheduler", scheduler, "--db", str(db),
                         "--quiet"]) == 0
        assert capsys.readouterr().out == f"{db}: 3 of 3 runs stored (3 new), 0 contradicting verdicts\n"
        frame = patience.compare("black_hole:1-3", "native", timeout=5, jobs=2, store=db, seed=3, retry_errors=True,
                                 scheduler=scheduler, certify=certify)
        assert frame.empty  # the stand-in stored nothing
        (command_args, command_kwargs), (api_args, api_kwargs) = calls
        deals, configurations, limits, where = command_args
        names = [f"black_hole:{number}" for number in (1, 2, 3)]
        assert [item.name for item in deals] == [item.name for item in api_args[0]] == names
        assert configurations == api_args[1] and limits == api_args[2] and Path(where) == api_args[3] == db
        for key in ("jobs", "seed", "retry_errors", "scheduler", "certify"):
            assert command_kwargs[key] == api_kwargs[key], key
        assert api_kwargs["certify"] is certify and api_kwargs["scheduler"] == scheduler


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
    scheduler = "tcp://127.0.0.1:8786"  # never reached, as above
    assert cli.main(["survey", "--game", "all_in_a_row", "--seeds", "1-5", "--timeout", "4", "--nodes", "900",
                     "--jobs", "2", "--batch", "2", "--certify", "--scheduler", scheduler, "--db", str(db),
                     "--quiet"]) == 0
    assert capsys.readouterr().out == f"{db}: 5 of 5 all_in_a_row deals stored (5 new)\n"
    with pytest.raises(Ran):
        patience.survey("all_in_a_row", range(1, 6), timeout=4, nodes=900, jobs=2, batch=2, store=db, certify=True,
                        scheduler=scheduler)
    (command_args, command_kwargs), (api_args, api_kwargs) = calls
    assert command_args == api_args  # path, game, numbering, shape, seeds, mode, seconds, nodes, batch
    for key in ("jobs", "scheduler", "cluster", "certify"):
        assert command_kwargs[key] == api_kwargs[key], key
    assert api_kwargs["scheduler"] == scheduler


def test_scheduler_is_refused_as_the_option_is(tmp_path: Path) -> None:
    for call in (patience.compare, lambda *args, **kwargs: patience.survey("black_hole", "1-2", **kwargs)):
        with pytest.raises(patience.UsageError, match="^scheduler must be text"):
            call("black_hole:1", "native", scheduler=8786, store=tmp_path / "s.sqlite")
        with pytest.raises(patience.UsageError, match="port of the Dask scheduler 'tcp://127.0.0.1:99999'"):
            call("black_hole:1", "native", scheduler="tcp://127.0.0.1:99999", store=tmp_path / "s.sqlite")
        with pytest.raises(patience.UsageError, match="^give a cluster or a scheduler, not both$"):
            call("black_hole:1", "native", scheduler="tcp://127.0.0.1:8786", cluster="slurm",
                 store=tmp_path / "s.sqlite")
    assert not (tmp_path / "s.sqlite").exists()  # refused before any store is made


@pytest.mark.slow  # a Dask scheduler and worker started in this process, then a campaign and a survey twice
def test_patience_compare_and_survey_on_a_dask_scheduler_equal_their_local_runs() -> None:
    distributed = pytest.importorskip("distributed")
    kept = ["deal", "configuration", "solver", "status", "sequence", "nodes"]  # not the clocks, nor the host
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        before = cluster.scheduler.transition_counter
        frame = patience.compare("black_hole:1-3+all_in_a_row:1", "native", timeout=20, scheduler=address)
        between = cluster.scheduler.transition_counter
        summary = patience.survey("all_in_a_row", range(1, 21), batch=10, scheduler=address)
        after = cluster.scheduler.transition_counter
    assert before < between < after  # each went through the scheduler (its tasks' transitions)
    local = patience.compare("black_hole:1-3+all_in_a_row:1", "native", timeout=20)
    assert frame[kept].to_dict("records") == local[kept].to_dict("records")
    assert set(frame["status"]) == {"solved", "unsolvable"}
    here = patience.survey("all_in_a_row", range(1, 21), batch=10)
    assert [row[:4] for row in summary.survey_rows] == [row[:4] for row in here.survey_rows]  # not the seconds
    assert (summary.won, summary.lost) == (here.won, here.lost) and summary.won and summary.lost
