"""patience-models: patience deals as models for every kind of solver, run and validated.

The Python API (patience/api.py) is imported here: `patience.deal("black_hole", 5)`,
`patience.solve(deal, "native")`, ... The submodules `patience.deal` and `patience.survey` are
imported first, so that the functions of the same names keep those names on the package (a
submodule imported later would take its place)."""

__version__ = "0.1.0"

from patience import deal as _deal_module  # noqa: I001  (first: see the docstring)
from patience import survey as _survey_module
from patience.pages import notebook as _notebook  # deals draw themselves in Jupyter through it (patience.core)
from patience.api import (
    Certificate,
    Checked,
    Grading,
    InputError,
    Model,
    Page,
    Replay,
    Report,
    Result,
    Status,
    SurveySummary,
    UsageError,
    certify,
    check,
    compare,
    coursework,
    deal,
    family,
    generate,
    grade,
    parse_deal,
    random_deal,
    read_deal,
    report,
    show,
    solve,
    solvers,
    survey,
    validate,
    write_deal,
)

del _deal_module, _survey_module, _notebook

__all__ = ["Certificate", "Checked", "Grading", "InputError", "Model", "Page", "Replay", "Report", "Result", "Status",
           "SurveySummary", "UsageError", "__version__", "certify", "check", "compare", "coursework", "deal", "family",
           "generate", "grade", "parse_deal", "random_deal", "read_deal", "report", "show", "solve", "solvers",
           "survey", "validate", "write_deal"]
