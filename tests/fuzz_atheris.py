"""Coverage-guided fuzzing of the .mat reader with atheris (libFuzzer); not run by pytest.

Usage (needs ``pip install atheris``)::

    python tests/fuzz_atheris.py -max_total_time=600 [FOLDER ...]

Each input goes through ``check`` of ``tests/test_fuzz.py``: decode, the strict and the
collecting reader, replay, write and read back. Anything else than the library's own errors,
with a line and a column, is a crash; libFuzzer saves the input as ``crash-<hash>``. The
run starts from the bundled files (sample_games/, tests/malformed/) and any FOLDERs given,
copied to a temporary folder where libFuzzer keeps the inputs it finds.
"""

import shutil
import sys
import tempfile
from pathlib import Path

import atheris

with atheris.instrument_imports(include=["nardy_analysis", "lark"]):
    import nardy_analysis.notation.mat  # noqa: F401  (instrumented before test_fuzz imports it)
    import nardy_analysis.notation.writer  # noqa: F401
    import nardy_analysis.replay  # noqa: F401

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import ROOT, SAMPLES  # noqa: E402
from test_fuzz import check  # noqa: E402


def main() -> None:
    options = [a for a in sys.argv[1:] if a.startswith("-")]
    folders = [Path(a) for a in sys.argv[1:] if not a.startswith("-")]
    with tempfile.TemporaryDirectory(prefix="nardy-fuzz-") as work:
        for folder in [SAMPLES, ROOT / "tests" / "malformed", *folders]:
            for index, path in enumerate(sorted(folder.rglob("*.mat"))):
                shutil.copy(path, Path(work) / f"{folder.name}-{index}-{path.name}")
        atheris.Setup([sys.argv[0], *options, work], check)
        atheris.Fuzz()


if __name__ == "__main__":
    main()
