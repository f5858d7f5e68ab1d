# The first part of the `acmesim plot` script: the imports, names every part uses, loading
# matplotlib, and reading the input files. The build joins the parts named in CMakeLists.txt, in
# that order, into one script and embeds it in the binary (cmake/EmbedText.cmake); acmesim_plot.py,
# the last part, is the entry point and describes the whole script.

import argparse
import csv
import html
import io
import json
import math
import os
import statistics
import sys

EXIT_BAD_INPUT = 2
MATPLOTLIB_HINT = "acmesim plot needs matplotlib (Debian: apt-get install python3-matplotlib)"
# Where Debian's python3-matplotlib is importable.
SYSTEM_PYTHON = "/usr/bin/python3"

# What the binary hands the script (acmesim_plot.py sets it from --facts; PlotCommand.cpp, plot_facts):
# metrics (the metric table: name, unit, better, headline, help), job_types (in their declared
# order), jobs_csv (the names of the jobs.csv columns the figures read), t975 (Student t quantiles
# by degrees of freedom from 1) and run (a run directory's summary facts, or None).
FACTS = {}

TYPE_COLOURS = {"Pretrain": "tab:red", "Eval": "tab:blue", "SFT": "tab:green", "MLLM": "tab:purple",
                "Debug": "tab:orange", "Other": "tab:gray"}

# A CDF line keeps at most this many points: plenty for the eye, and keeps SVG files small.
CDF_POINTS = 1000

plt = None  # matplotlib.pyplot, imported by load_matplotlib()
np = None   # numpy


class BadInput(Exception):
    """Input the script cannot use; the message names the file and what is wrong with it."""


def note(message):
    print("note: " + message, file=sys.stderr)


# --- libraries -------------------------------------------------------------------------------

def retry_with_system_python():
    """A pyenv or virtualenv python3 first on PATH often lacks matplotlib although Debian's
    python3-matplotlib is installed for /usr/bin/python3: run this script once more there."""
    argv = getattr(sys, "orig_argv", None)  # the command line, `-c <script>` included
    if (not argv or os.environ.get("ACMESIM_PLOT_RETRIED") or not os.access(SYSTEM_PYTHON, os.X_OK)
            or os.path.realpath(sys.executable) == os.path.realpath(SYSTEM_PYTHON)):
        return
    os.environ["ACMESIM_PLOT_RETRIED"] = "1"
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + argv[1:])


def load_matplotlib():
    global plt, np
    try:
        import matplotlib
        matplotlib.use("Agg")  # no display: files only
        import matplotlib.pyplot
        import numpy
    except ImportError as e:
        retry_with_system_python()
        raise BadInput(f"{MATPLOTLIB_HINT}; {sys.executable}: {e}")
    plt, np = matplotlib.pyplot, numpy
    # Fixed ids in SVG files, so the same results give the same bytes.
    matplotlib.rcParams["svg.hashsalt"] = "acmesim"
    matplotlib.rcParams["figure.dpi"] = 100


# --- reading inputs --------------------------------------------------------------------------

def read_csv(path, required, on_row, check_header=None):
    """Reads a CSV file row by row (jobs.csv files can hold millions of rows): checks its header
    has the `required` columns (and passes check_header(header), if given) and each row the
    header's width, and calls on_row(line_number, row, column_index) for each non-blank row.
    Returns the header."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if not header:
                raise BadInput(f"{path}: empty file, expected a header line")
            missing = [c for c in required if c not in header]
            if missing:
                raise BadInput(f"{path}:1: the header lacks the column(s) {', '.join(missing)}")
            if check_header:
                check_header(header)
            column = {name: i for i, name in enumerate(header)}
            for row in reader:
                if not row:
                    continue
                if len(row) != len(header):
                    raise BadInput(f"{path}:{reader.line_num}: {len(row)} fields where the header has {len(header)}")
                on_row(reader.line_num, row, column)
            return header
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror}")
    except (csv.Error, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: not a readable CSV file: {e}")


def number(text, where, column):
    try:
        value = float(text)
    except ValueError:
        raise BadInput(f"{where}: column {column}: '{text}' is not a number")
    if not math.isfinite(value):
        raise BadInput(f"{where}: column {column}: '{text}' is not a finite number")
    return value


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: not valid JSON: {e}")


def json_number(value, where, key, allow_null=False):
    if value is None and allow_null:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise BadInput(f"{where}: {key}: expected a number{' or null' if allow_null else ''}, found {value!r}")
    return float(value)


def read_gpu_jobs(path):
    """{type: [wait...]}, {type: [jct...]} of the GPU jobs of a jobs.csv: the jobs summary.json's
    wait_s and jct_s describe. Rejected jobs (empty times) are left out, as there."""
    waits, jcts = {}, {}

    kind_col, gpus_col, wait_col, jct_col = (jobs_column(c) for c in ("type", "gpus", "wait", "jct"))

    def take(line, row, col):
        where = f"{path}:{line}"
        if number(row[col[gpus_col]], where, gpus_col) <= 0:
            return
        wait, jct = row[col[wait_col]], row[col[jct_col]]
        if wait == "" or jct == "":
            return
        kind = row[col[kind_col]]
        waits.setdefault(kind, []).append(number(wait, where, wait_col))
        jcts.setdefault(kind, []).append(number(jct, where, jct_col))

    read_csv(path, [kind_col, gpus_col, wait_col, jct_col], take)
    # Arrays take a quarter of the memory of lists of floats: a comparison pools many runs.
    return ({t: np.array(v) for t, v in waits.items()}, {t: np.array(v) for t, v in jcts.items()})


def ordered_types(types):
    """Job types in their declared order (the order of the Acme paper's figures); others follow, sorted."""
    order = FACTS["job_types"]
    return [t for t in order if t in types] + sorted(t for t in types if t not in order)


def jobs_column(name):
    """The jobs.csv column the binary declares for `name` (type, gpus, wait, jct, slowdown)."""
    return FACTS["jobs_csv"][name]


