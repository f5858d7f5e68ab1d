# A part of the `acmesim plot` script: the figures of a run directory. It uses the names the
# parts before it define (plot_common.py comes first; see acmesim_plot.py for the whole script).

# Colours of the GPU states of utilisation.csv, bottom of the stack first: work, then overheads,
# then losses, then capacity nobody used. Columns not listed here are stacked after these, in
# header order. Their labels come from the binary (facts["state_labels"]).
STATE_COLOURS = [
    # work
    ("busy", "#2ca02c"),
    # overheads
    ("model_load", "#98df8a"), ("cpu_wait", "#bcbd22"), ("checkpoint", "#1f77b4"), ("restart", "#aec7e8"),
    # losses
    ("lost_work", "#d62728"), ("preempted", "#8c564b"), ("detection", "#ff9896"), ("waiting_for_person", "#ff7f0e"), ("communication", "#e377c2"),
    ("down", "#7f7f7f"),
    # capacity nobody used
    ("stranded", "#9467bd"), ("spare", "#c5b0d5"), ("idle", "#e5e5e5"),
]


def plot_run(results, facts, writer):
    """facts: what the binary read from the run's summary.json (FACTS["run"]; PlotCommand.cpp, run_figure_facts):
    scenario_name, gpu_hours_total, lost_gpu_hours and unavailable_gpu_hours [{label, hours}] with
    their totals, state_labels, device ("GPU", or "CPU" on a CPU machine)."""
    name = facts["scenario_name"]
    suffix = f" ({name})" if name else ""
    device = facts["device"]

    waits, jcts = read_gpu_jobs(os.path.join(results, "jobs.csv"))
    for figure, what, samples in (("wait_cdf", "queueing delay", waits), ("jct_cdf", "job completion time", jcts)):
        fig, ax = plt.subplots(figsize=(7, 4.5))
        series = [(t, samples[t], TYPE_COLOURS.get(t)) for t in ordered_types(samples)]
        cdf_axes(ax, what, series)
        ax.set_title(f"{what.capitalize()} of {device} jobs by type{suffix}", pad=14)
        writer.save(fig, figure)

    utilisation_path = os.path.join(results, "utilisation.csv")
    if os.path.exists(utilisation_path):
        plot_utilisation(utilisation_path, facts["state_labels"], suffix, device, writer)
    else:
        note(f"{utilisation_path}: no such file; skipping the utilisation figure")
    plot_lost_gpu_hours(facts, suffix, device, writer)
    slowdowns = read_slowdowns(os.path.join(results, "jobs.csv"))
    if slowdowns:
        plot_slowdown(slowdowns, suffix, writer)


def read_slowdowns(path):
    """{type: ([gpus...], [slowdown...])} of the GPU jobs that ran, from the slowdown column a run
    with the network model writes; {} without it."""
    jobs = {}
    kind_col, gpus_col, jct_col, slowdown_col = (jobs_column(c) for c in ("type", "gpus", "jct", "slowdown"))

    def take(line, row, col):
        if slowdown_col not in col or row[col[jct_col]] == "":
            return
        where = f"{path}:{line}"
        gpus = number(row[col[gpus_col]], where, gpus_col)
        if gpus <= 0:
            return
        sizes, factors = jobs.setdefault(row[col[kind_col]], ([], []))
        sizes.append(gpus)
        factors.append(number(row[col[slowdown_col]], where, slowdown_col))

    read_csv(path, [kind_col, gpus_col, jct_col], take)
    return jobs


def plot_slowdown(jobs, suffix, writer):
    """Each GPU job's slowdown (training wall time over its reference time) against its size."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for kind in ordered_types(jobs):
        sizes, factors = jobs[kind]
        ax.scatter(sizes, factors, s=10, alpha=0.6, color=TYPE_COLOURS.get(kind), label=f"{kind} (n={len(sizes):,})")
    ax.set_xscale("log", base=2)
    ax.axhline(1.0, color="0.75", linestyle=":", linewidth=0.8)
    ax.set_xlabel("GPUs")
    ax.set_ylabel("slowdown (wall time training / reference time)")
    ax.set_title(f"Network slowdown of GPU jobs by size{suffix}", pad=14)
    ax.legend(loc="upper left", fontsize="small")
    writer.save(fig, "slowdown")


# utilisation.csv's column of the servers' power, drawn as a line rather than a GPU state.
POWER_COLUMN = "it_power_kw"


def plot_utilisation(path, labels, suffix, device, writer):
    bins = []  # (start_s, end_s, {state: GPUs})

    def take(line, row, col):
        where = f"{path}:{line}"
        values = {name: number(row[i], where, name) for name, i in col.items()}
        start, end = values.pop("start_s"), values.pop("end_s")
        if end <= start:
            raise BadInput(f"{where}: end_s {row[col['end_s']]} is not after start_s {row[col['start_s']]}")
        bins.append((start, end, values))

    header = read_csv(path, ["start_s", "end_s"], take)
    if not bins:
        raise BadInput(f"{path}: no rows after the header")
    bins.sort(key=lambda b: b[0])
    known = [s for s, _ in STATE_COLOURS]
    not_states = ["start_s", "end_s", POWER_COLUMN]
    states = [s for s in known if s in header] + [c for c in header if c not in known + not_states]
    # States that never hold a GPU would only clutter the legend.
    states = [s for s in states if any(b[2][s] != 0 for b in bins)]
    colours = dict(STATE_COLOURS)

    # Each bin's value holds from its start to its end: steps, closed by the last bin's end.
    days = [b[0] / 86400 for b in bins] + [bins[-1][1] / 86400]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    if states:
        ax.stackplot(days, *[[b[2][s] for b in bins] + [bins[-1][2][s]] for s in states], step="post",
                     labels=[labels.get(s, s) for s in states],
                     colors=[colours.get(s, f"C{i}") for i, s in enumerate(states)], linewidth=0)
        # Right of the axes, and of the power axis when there is one.
        ax.legend(loc="upper left", bbox_to_anchor=(1.12 if POWER_COLUMN in header else 1.01, 1.0), fontsize=8,
                  title=f"{device} state")
    ax.set_xlim(days[0], days[-1])
    ax.set_ylim(0, max(1.0, max(sum(b[2][s] for s in states) for b in bins)) * 1.02)
    ax.set_xlabel("simulated time (days)")
    ax.set_ylabel(f"{device}s (mean over each bin)")
    ax.set_title(f"{device}s by state over time{suffix}")
    ax.grid(True, alpha=0.3)
    if POWER_COLUMN in header:
        # The servers' power on its own axis: it follows the busy GPUs, plus the servers' base.
        power = ax.twinx()
        power.step(days, [b[2][POWER_COLUMN] for b in bins] + [bins[-1][2][POWER_COLUMN]], where="post",
                   color="black", linewidth=1)
        power.set_ylim(0, max(b[2][POWER_COLUMN] for b in bins) * 1.05 or 1)
        power.set_ylabel("IT power, black line (kW, mean over each bin)")
    writer.save(fig, "utilisation")


def plot_lost_gpu_hours(facts, suffix, device, writer):
    """Drawn even when nothing was lost: a figure set that does not depend on the run is easier
    to script against, and an empty chart says 'no losses' plainly. Work lost (red) and capacity
    unavailable (grey: nodes down, spares, stranded GPUs) are two totals, drawn apart."""
    lost = facts["lost_gpu_hours"]
    unavailable = facts.get("unavailable_gpu_hours", [])
    causes = [cause["label"] for cause in lost] + [state["label"] for state in unavailable]
    hours = [cause["hours"] for cause in lost] + [state["hours"] for state in unavailable]
    colours = ["tab:red"] * len(lost) + ["0.55"] * len(unavailable)
    total = facts["lost_gpu_hours_total"]
    unavailable_total = facts.get("unavailable_gpu_hours_total", 0.0)
    fig, ax = plt.subplots(figsize=(7, 0.9 + 0.4 * max(len(causes), 1)))
    ax.barh(range(len(causes)), hours, color=colours)
    if unavailable:
        ax.axhline(len(lost) - 0.5, color="0.3", linewidth=0.8)
    ax.set_yticks(range(len(causes)), causes)
    ax.invert_yaxis()
    for y, h in enumerate(hours):
        ax.text(h, y, f" {h:,.1f}", va="center", fontsize=8)
    ax.set_xlim(0, max(hours, default=0) * 1.2 or 1.0)
    ax.set_xlabel(f"{device}-hours")
    if total >= 10000:  # thousands separators; small values keep the default ticks
        ax.xaxis.set_major_formatter("{x:,.0f}")
    share = ""
    all_hours = facts["gpu_hours_total"]
    if all_hours > 0:
        share = f", {100 * total / all_hours:.2f}% of all"
    ax.set_title(f"Lost {device}-hours by cause{suffix}\n{total:,.1f} of work lost{share}; "
                 f"{unavailable_total:,.1f} of capacity unavailable (grey)", fontsize=11)
    if total == 0:
        ax.text(0.5, 0.5, f"no {device}-hours lost", transform=ax.transAxes, ha="center", va="center", color="0.4")
    ax.grid(True, axis="x", alpha=0.3)
    writer.save(fig, "lost_gpu_hours")

