# A part of the `acmesim plot` script: what every figure uses, the writer of figure files and
# the CDF axes. It uses the names the parts before it define (plot_common.py comes first; see
# acmesim_plot.py for the whole script).


class FigureWriter:
    def __init__(self, out_dir, fmt):
        self.out_dir, self.fmt = out_dir, fmt
        try:
            os.makedirs(out_dir, exist_ok=True)
        except OSError as e:
            raise BadInput(f"{out_dir}: cannot create the output directory: {e.strerror}")

    def save(self, fig, name):
        """Writes under a temporary name and renames, so a file that exists is whole."""
        path = os.path.join(self.out_dir, f"{name}.{self.fmt}")
        temporary = path + ".tmp"
        # No date or version stamps: the same results give the same bytes.
        metadata = {"Date": None} if self.fmt == "svg" else {"Software": None}
        try:
            fig.savefig(temporary, format=self.fmt, metadata=metadata, dpi=150, bbox_inches="tight")
            os.replace(temporary, path)
        except OSError as e:
            raise BadInput(f"{path}: cannot write: {e.strerror}")
        finally:
            plt.close(fig)
        print(path, flush=True)


def time_unit(values):
    """(divisor, unit) that shows durations of this size readably."""
    top = max((abs(v) for v in values), default=0.0)
    for divisor, unit in ((86400.0, "days"), (3600.0, "hours"), (60.0, "minutes")):
        if top >= 2 * divisor:
            return divisor, unit
    return 1.0, "s"


def cdf_steps(values):
    """x, y of the empirical CDF of `values`, clipped at 1 s for a log axis, thinned to at most
    CDF_POINTS points taken at evenly spaced ranks."""
    x = np.maximum(np.sort(np.asarray(values, dtype=float)), 1.0)
    n = len(x)
    ranks = np.arange(n) if n <= CDF_POINTS else np.unique(np.linspace(0, n - 1, CDF_POINTS).round().astype(int))
    return np.concatenate(([x[0]], x[ranks])), np.concatenate(([0.0], (ranks + 1) / n))


def cdf_axes(ax, what, series):
    """One CDF line per (label, values, colour) on a log x axis starting at 1 s."""
    top = 10.0
    for label, values, colour in series:
        x, y = cdf_steps(values)
        ax.plot(x, y, drawstyle="steps-post", color=colour, label=f"{label} (n={len(values):,})")
        top = max(top, float(x[-1]) * 1.5)
    ax.set_xscale("log")
    ax.set_xlim(1.0, top)
    ax.set_ylim(0.0, 1.02)
    for seconds, name in ((60, "1 min"), (3600, "1 h"), (86400, "1 day"), (7 * 86400, "1 week")):
        if seconds < top:
            ax.axvline(seconds, color="0.75", linestyle=":", linewidth=0.8)
            ax.text(seconds, 1.025, name, fontsize=7, color="0.4", ha="center", va="bottom")
    ax.set_xlabel(f"{what} (s, log scale; values under 1 s drawn at 1 s)")
    ax.set_ylabel("fraction of jobs (CDF)")
    ax.grid(True, which="major", alpha=0.3)
    if series:
        ax.legend(loc="lower right", fontsize=8)
    else:
        ax.text(0.5, 0.5, "no GPU jobs", transform=ax.transAxes, ha="center", va="center", color="0.4")

