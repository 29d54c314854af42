import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
APP = os.path.dirname(HERE)


def test_report_example1():
    ex = os.path.join(APP, "examples", "example1")
    out = os.path.join(tempfile.mkdtemp(), "report.csv")
    p = subprocess.run([sys.executable, os.path.join(APP, "ledgerctl.py"), "report", os.path.join(ex, "book"), out],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    with open(out) as f, open(os.path.join(ex, "expected", "report.csv")) as g:
        assert f.read() == g.read(), "report differs from examples/example1/expected/report.csv"
