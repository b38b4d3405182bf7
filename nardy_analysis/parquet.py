"""Frames written as a partitioned Parquet dataset as they come, never all rows in memory."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa


class ParquetParts:
    """A partitioned Parquet dataset written as frames come: ``part-00000.parquet``, ... in
    ``folder``, each part ``rows`` rows or more (the last fewer) in the order given, all of
    one ``schema`` (one empty part when no row came), so that ``pandas.read_parquet(folder)``
    and ``dask.dataframe.read_parquet(folder)`` read the folder as one table, with the
    pandas dtypes given.

    Parameters
    ----------
    folder : str or path
        The dataset's folder; created when missing (its parent must exist). It should hold
        no other ``.parquet`` file: a reader of the folder would mix them in.
    dtypes : dict
        The pandas dtype of each column, in order: ``int64``/``Int64`` (64-bit integers),
        ``float64``, ``bool``/``boolean``, ``object`` (text); ``list`` for lists of
        integers. The analyses give theirs (``analysis.turns.DTYPES``,
        ``analysis.luck.ROLL_DTYPES``, ``analysis.skill.DECISION_DTYPES``).
    rows : int
        Rows buffered before a part is written.

    Attributes
    ----------
    parts, written : int
        Parts and rows written so far.

    Examples
    --------
    >>> from nardy_analysis.analysis.turns import DTYPES
    >>> from nardy_analysis.batch import turns_frames
    >>> parts = ParquetParts("turns", {**DTYPES, "blot_points": "list"})
    >>> for frame in turns_frames("matches/"):
    ...     parts.write(frame)
    >>> parts.close()
    """

    ARROW = {"int64": "int64", "Int64": "int64", "float64": "float64", "bool": "bool",
             "boolean": "bool", "object": "string"}
    """The Arrow type of each pandas dtype a column may have."""

    def __init__(self, folder: str | os.PathLike[str], dtypes: Mapping[str, str],
                 rows: int = 100_000):
        import pandas as pd
        import pyarrow as pa  # here: only Parquet output needs it

        self.folder, self.rows, self.parts, self.written = Path(folder), rows, 0, 0
        self.dtypes = {c: "object" if t == "list" else t for c, t in dtypes.items()}
        schema = pa.schema([(c, pa.list_(pa.int64()) if t == "list"
                             else pa.type_for_alias(self.ARROW[t]))
                            for c, t in dtypes.items()])
        # With pandas' metadata (the dtypes to read back), as pyarrow writes it for a frame.
        self.schema = pa.Table.from_pandas(pd.DataFrame(columns=list(self.dtypes)).astype(
            self.dtypes), schema, preserve_index=False).schema
        self.buffer: list[pa.Table] = []
        self.buffered = 0

    @property
    def next_part(self) -> Path:
        """The path of the part written next."""
        return self.folder / f"part-{self.parts:05d}.parquet"

    def write(self, part: pd.DataFrame | Mapping[str, Sequence[Any]]) -> None:
        """Add ``part``: a frame of the columns of ``dtypes``, or a dict of them (in that
        order) to sequences of values, None or NaN where missing (faster: no frame is
        made). A part is written once ``rows`` rows are buffered.

        Raises
        ------
        OSError
            The folder or the part :attr:`next_part` cannot be written.
        """
        import pyarrow as pa

        if isinstance(part, Mapping):
            table = pa.Table.from_arrays([pa.array(values, field.type, from_pandas=True)
                                          for values, field in zip(part.values(), self.schema)],
                                         schema=self.schema)
        else:
            table = pa.Table.from_pandas(part.astype(self.dtypes), self.schema,
                                         preserve_index=False)
        self.buffer.append(table)
        self.buffered += len(table)
        if self.buffered >= self.rows:
            self._flush()

    def close(self) -> None:
        """Write the rows still buffered (an empty part when no part was written).

        Raises
        ------
        OSError
            As for :meth:`write`.
        """
        if self.buffer or not self.parts:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.concat_tables(self.buffer) if self.buffer else self.schema.empty_table()
        self.folder.mkdir(exist_ok=True)
        pq.write_table(table, self.next_part)
        self.parts, self.written, self.buffer = self.parts + 1, self.written + len(table), []
        self.buffered = 0
