"""Every kind of store patience writes, declared in one place: its name, its mark (SQLite's
application_id), its tables in every schema version it reads, and the command that writes it.

`patience.stores` lists them all, so that a store of one kind given where another is asked for is
named as what it is, whatever modules a program has imported; each store's module adds what its rows
and settings must hold (`patience.stores.StoreKind.of`). A new kind of store is one declaration here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class StoreSchema:
    """What identifies one kind of store: `schema` is its current tables (version `schema_version`),
    `previous` those of the older versions still read."""

    name: str
    application_id: int
    schema_version: int
    schema: str
    made_by: str  # the command that writes it, named when another kind of store is given
    previous: Mapping[int, str] = field(default_factory=dict)


CAMPAIGN_V1 = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS configurations (
    label TEXT PRIMARY KEY, solver TEXT NOT NULL, options TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deals (
    name TEXT PRIMARY KEY, game TEXT NOT NULL, cards INTEGER NOT NULL, piles INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    deal TEXT NOT NULL REFERENCES deals(name),
    configuration TEXT NOT NULL REFERENCES configurations(label),
    solver TEXT NOT NULL, options TEXT NOT NULL, status TEXT NOT NULL, sequence TEXT,
    wall REAL NOT NULL, cpu REAL NOT NULL, nodes INTEGER, version TEXT, host TEXT,
    command TEXT, message TEXT, stats TEXT, finished TEXT NOT NULL,
    PRIMARY KEY (deal, configuration));
"""

# Schema 2 keys a deal by its content (`deal_content`) as well as its name: a deal file changed under
# the same path is a new deal, and the runs on its old content stay theirs. The name stays in the key
# so that a family's repeated deals (small random shapes) still count once per name.
CAMPAIGN_DEALS_V2 = """
CREATE TABLE IF NOT EXISTS deals (
    name TEXT NOT NULL, content TEXT NOT NULL, game TEXT NOT NULL, cards INTEGER NOT NULL,
    piles INTEGER NOT NULL, PRIMARY KEY (name, content));
"""
CAMPAIGN_RUNS_V2 = """
CREATE TABLE IF NOT EXISTS runs (
    deal TEXT NOT NULL, content TEXT NOT NULL,
    configuration TEXT NOT NULL REFERENCES configurations(label),
    solver TEXT NOT NULL, options TEXT NOT NULL, status TEXT NOT NULL, sequence TEXT,
    wall REAL NOT NULL, cpu REAL NOT NULL, nodes INTEGER, version TEXT, host TEXT,
    command TEXT, message TEXT, stats TEXT, finished TEXT NOT NULL,
    PRIMARY KEY (deal, content, configuration), FOREIGN KEY (deal, content) REFERENCES deals(name, content));
"""

CAMPAIGN_V2 = CAMPAIGN_V1.split("CREATE TABLE IF NOT EXISTS deals")[0] + CAMPAIGN_DEALS_V2 + CAMPAIGN_RUNS_V2
# Schema 3 keeps the certificate of each loss a campaign with `certify: true` reports (docs/certificates.md),
# beside its run: the certificate file's bytes, its positions, and the seconds its pass took.
CAMPAIGN_CERTIFICATES_V3 = """
CREATE TABLE IF NOT EXISTS certificates (
    deal TEXT NOT NULL, content TEXT NOT NULL, configuration TEXT NOT NULL, positions INTEGER NOT NULL,
    seconds REAL NOT NULL, data BLOB NOT NULL,
    PRIMARY KEY (deal, content, configuration),
    FOREIGN KEY (deal, content, configuration) REFERENCES runs(deal, content, configuration));
"""

CAMPAIGN = StoreSchema(  # patience/campaign/store.py
    name="campaign", application_id=0x50434D50, schema_version=3,  # "PCMP"
    schema=CAMPAIGN_V2 + CAMPAIGN_CERTIFICATES_V3, made_by="patience compare",
    previous={1: CAMPAIGN_V1, 2: CAMPAIGN_V2})

SURVEY_V1 = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deals (
    seed INTEGER PRIMARY KEY, verdict INTEGER NOT NULL, cards INTEGER NOT NULL,
    nodes INTEGER NOT NULL, seconds REAL NOT NULL);
"""
# Schema 2 keeps the certificate of each loss a `survey --certify` proved (docs/certificates.md): the
# certificate file's bytes, its positions, and the seconds its pass took.
SURVEY_CERTIFICATES_V2 = """
CREATE TABLE IF NOT EXISTS certificates (
    seed INTEGER PRIMARY KEY REFERENCES deals(seed), positions INTEGER NOT NULL, seconds REAL NOT NULL,
    data BLOB NOT NULL);
"""

SURVEY = StoreSchema(  # patience/survey/store.py
    name="survey", application_id=0x50535256, schema_version=2, made_by="patience survey",  # "PSRV"
    schema=SURVEY_V1 + SURVEY_CERTIFICATES_V2, previous={1: SURVEY_V1})

SHUFFLES = StoreSchema(  # patience/survey/experiment.py
    name="shuffle-experiment", application_id=0x50534846, schema_version=1,  # "PSHF"
    made_by="patience survey shuffles", schema="""
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chains (
    game TEXT NOT NULL, deck TEXT NOT NULL, dealing TEXT NOT NULL, riffles INTEGER NOT NULL,
    batch INTEGER NOT NULL, games INTEGER NOT NULL, won INTEGER NOT NULL, undecided INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (game, deck, dealing, riffles, batch));
""")

SCHEMAS = (CAMPAIGN, SURVEY, SHUFFLES)  # every kind of store
