"""Large export documents for the import proofs and benchmarks, made quickly: one Jubileu table
played through the real ledger (tests/bench/bench_import.make_document), copied under new ids
until the document reaches the size wanted. Every copy is judged and stored like any table, so
an import of it costs what an import of as many different tables would."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from .bench_import import make_document


def seed(workdir: Path, hands: int) -> dict[str, Any]:
    """A document of one table of ``hands`` hands."""
    return make_document(workdir, 1, hands)


def sized(seed_document: dict[str, Any], target_bytes: int, prefix: str) -> dict[str, Any]:
    """The seed's table copied under ids ``<prefix>-NNNN`` until the document holds about
    ``target_bytes`` (at least one copy)."""
    table = seed_document["tables"][0]
    one = len(json.dumps(table))
    copies = max(1, target_bytes // one)
    tables = []
    for n in range(copies):
        twin = copy.deepcopy(table)
        twin["id"], twin["follows"] = f"{prefix}-{n:04d}".ljust(16, "0")[:32], None
        tables.append(twin)
    return {**seed_document, "tables": tables}
