"""``qipan.records``: read, write and replay game records (see ``qipan.core.records``)."""

from .core.formats import RecordFormat, formats, read_records, read_records_text, register_format
from .core.records import FORMAT, Record, load, loads, now_iso, save

__all__ = [
    "FORMAT",
    "Record",
    "RecordFormat",
    "formats",
    "load",
    "loads",
    "now_iso",
    "read_records",
    "read_records_text",
    "register_format",
    "save",
]
