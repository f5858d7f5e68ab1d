"""Figures from acmesim results: `acmesim plot RESULTS_DIR [--format png|svg] [--out DIR]`, and
with --report FILE the one HTML page `acmesim report RESULTS_DIR` writes.

The acmesim binary embeds this script and runs it as `python3 -c <script> [options] RESULTS_DIR`.
RESULTS_DIR is a run (`acmesim run`), a comparison (`acmesim compare`), a sweep (`acmesim sweep`) or
a plan (`acmesim plan`) directory, told apart by the files in it. Each figure goes to its own file under --out (default
RESULTS_DIR/plots/) and its path is printed on stdout; notes go to stderr. Input the script
cannot use exits 2 with a message naming the file. Needs only the standard library and matplotlib
(with numpy). docs/plots.md describes every figure.

The script is kept in parts, joined by the build in this order into the one script the binary
embeds (CMakeLists.txt names them; cmake/EmbedText.cmake joins them): plot_common.py (imports,
shared names, loading matplotlib, reading inputs), plot_figures.py (figure files and CDF axes),
plot_run.py, plot_compare.py, plot_sweep.py and plot_plan.py (the figures of each kind of directory),
plot_report.py (the HTML page) and this file, the entry point, last.
"""


def detect_kind(results):
    """Which command wrote this directory, by the files in it."""
    has = lambda name: os.path.isfile(os.path.join(results, name))
    if has("plan.json"):  # before results.csv, which a plan directory also has
        return plot_plan
    if has("compare.json"):
        return plot_compare
    if has("results.csv"):
        return plot_sweep
    if has("jobs.csv") or has("summary.json"):
        for name in ("jobs.csv", "summary.json"):
            if not has(name):
                raise BadInput(f"{os.path.join(results, name)}: no such file; a run directory has jobs.csv and summary.json")
        return plot_run
    raise BadInput(f"{results}: not an acmesim results directory: expected jobs.csv and summary.json "
                   "(acmesim run), compare.json (acmesim compare), results.csv (acmesim sweep) or plan.json (acmesim plan)")


def main():
    parser = argparse.ArgumentParser(prog="acmesim plot", description="Figures from acmesim results.")
    parser.add_argument("results", metavar="RESULTS_DIR")
    parser.add_argument("--format", choices=["png", "svg"], default="png")
    parser.add_argument("--out", help="output directory (default RESULTS_DIR/plots)")
    parser.add_argument("--report", metavar="FILE", help="write one HTML page to FILE instead of figure files")
    # What the script takes from the binary's declarations (PlotCommand.cpp, plot_facts): the
    # metric table, job types, jobs.csv columns, a sweep's t quantiles, a run's summary facts.
    parser.add_argument("--facts", type=json.loads, required=True)
    args = parser.parse_args()  # a usage error exits 2, as acmesim's do
    FACTS.update(args.facts)
    try:
        if not os.path.isdir(args.results):
            raise BadInput(f"{args.results}: no such directory")
        plot = detect_kind(args.results)
        load_matplotlib()
        if plot is plot_run and FACTS.get("run") is None:
            raise BadInput(f"{args.results}: a run directory is plotted through `acmesim plot`, which reads its summary.json")
        if args.report:
            report(args.results, plot, args.report)
            return 0
        writer = FigureWriter(args.out or os.path.join(args.results, "plots"), args.format)
        if plot is plot_run:
            plot_run(args.results, FACTS["run"], writer)
        else:
            plot(args.results, writer)
    except BadInput as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":
    sys.exit(main())
