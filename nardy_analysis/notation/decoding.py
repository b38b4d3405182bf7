"""A match file's bytes to text: the encodings match files are written in, and the bytes that
are no text at all.

:func:`decode` reads UTF-8 and UTF-16 (with a byte-order mark) as such and tells the
single-byte encodings apart with charset-normalizer; :func:`binary_data` knows the binary
formats often found misnamed among match files. An error says which byte, at which line and
column of the text (:func:`decode_error`). The ``.mat`` reader (:mod:`.mat`) and the SGF
reader (:mod:`.sgf`) use them.
"""

from __future__ import annotations

import codecs
import re

from ..errors import DecodeError, NotAMatch

# In bytes decoded as UTF-8 with "surrogateescape": an invalid byte, a valid non-ASCII letter.
_BAD_BYTE = re.compile("[\udc80-\udcff]")
_UTF8_LETTER = re.compile("[^\x00-\x7f\udc80-\udcff]")
# The single-byte encodings of match files that are not UTF-8: Western, Cyrillic.
_SINGLE_BYTE = ("cp1252", "cp1251")
# The first bytes of binary files often found misnamed among match files: PNG, GIF, JPEG,
# ZIP (and .docx, .xlsx), PDF, gzip.
_MAGIC = (b"\x89PNG", b"GIF8", b"\xff\xd8\xff", b"PK\x03\x04", b"%PDF-", b"\x1f\x8b")


def decode(data: bytes, file: str | None = None) -> str:
    """Decode a match file's bytes.

    UTF-8 (with or without a byte-order mark) and UTF-16 with a byte-order mark are decoded
    as such. Other text that is not valid UTF-8 is in a single-byte encoding: Western
    (cp1252: Icelandic, French, German, Spanish names) or Cyrillic (cp1251), the two that
    match files are written in; charset-normalizer chooses between them from the lines
    that hold non-ASCII bytes (the names, among much ASCII, would sway it less than they
    should). Text that holds at least as many valid UTF-8 letters as invalid bytes is
    UTF-8 with bad bytes, not cp1251 or cp1252 (which would silently turn every UTF-8
    letter into two wrong ones).

    Parameters
    ----------
    data : bytes
        The whole file.
    file : str, optional
        The file name, for the error message.

    Returns
    -------
    str
        The text, line ends as written.

    Raises
    ------
    DecodeError
        Bytes that the encoding found cannot decode, or that are neither UTF-8 nor text in
        either single-byte encoding; ``offset`` is the first such byte, ``line`` and
        ``column`` (1-based, in characters) where it is in the text.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _decode(data, "utf-16", file)
    if data.startswith(codecs.BOM_UTF8):
        return _decode(data, "utf-8", file, len(codecs.BOM_UTF8))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        escaped = data.decode("utf-8", "surrogateescape")
        letters = len(_UTF8_LETTER.findall(escaped))
        if letters and letters >= len(_BAD_BYTE.findall(escaped)):
            raise decode_error(data, exc.start, "utf-8", file) from None
        first_bad = exc.start
    # Imported here: only files that are not UTF-8 need it (it takes 20 ms to import).
    from charset_normalizer import from_bytes

    non_ascii = b"\n".join(line for line in data.splitlines() if not line.isascii())
    best = from_bytes(non_ascii, cp_isolation=list(_SINGLE_BYTE)).best()
    if best is None:
        raise decode_error(data, first_bad, "utf-8", file, " or ".join(_SINGLE_BYTE))
    return _decode(data, best.encoding, file)


def _decode(data: bytes, encoding: str, file: str | None, start: int = 0) -> str:
    """``data[start:]`` decoded; errors give their offset in ``data``."""
    try:
        return data[start:].decode(encoding)
    except UnicodeDecodeError as exc:
        raise decode_error(data, start + exc.start, encoding, file) from None


def decode_error(data: bytes, offset: int, encoding: str, file: str | None,
                 also: str = "") -> DecodeError:
    """A DecodeError for the byte at ``offset`` (of text in ``encoding`` before it), with
    its line and column in the text; ``also`` names the other encodings tried."""
    tried = f"{encoding}, nor is the text {also}" if also else encoding
    error = DecodeError(f"byte {data[offset:offset + 1]!r} at offset {offset} cannot be "
                        f"decoded as {tried}", offset, file)
    error.line, error.column = text_position(data, offset, encoding)
    return error


def text_position(data: bytes, offset: int, encoding: str) -> tuple[int, int]:
    """The 1-based line and column, in characters, of byte ``offset`` of ``data``, the bytes
    before it read as ``encoding`` (any line ends)."""
    before = lf_text(data[:offset].decode(encoding, "replace"))
    return before.count("\n") + 1, len(before) - before.rfind("\n")


def lf_text(text: str) -> str:
    """``text`` with LF line ends (CRLF and CR converted) and no leading byte-order mark."""
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def binary_data(data: bytes) -> bool:
    """True when a file's bytes begin as a common binary format does (PNG, GIF, JPEG, ZIP,
    PDF, gzip): not a match record, whatever text its data may hold. (Other control
    characters make a file binary data only when it has no header line: see
    :func:`~nardy_analysis.notation.mat.parse_mat`.)"""
    return data.startswith(_MAGIC)


def binary_error(file: str | None) -> NotAMatch:
    """The error of a file of binary data (:func:`binary_data`), at 1:1."""
    return NotAMatch("not a match record: binary data", 1, 1, "", file)
