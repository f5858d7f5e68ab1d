"""Plots benchmarks/scaling.csv (written by benchmarks/scaling.sh) and prints the growth exponents.

Usage: plot_scaling.py SCALING_CSV OUT_SVG

The exponent of a series is the slope of log(cost) against log(size), fitted by least squares over
its runs: 1 is linear growth.
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)


def slope(xs, ys):
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    mx = sum(lx) / len(lx)
    my = sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def main(csv_path, svg_path):
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    job_runs_gpus = int(next(r["gpus"] for r in rows if r["series"] == "jobs"))
    series = {
        "jobs": ("jobs", f"jobs (Acme, {job_runs_gpus:,} GPUs)"),
        "cluster": ("gpus", "GPUs (same load per GPU, 30 days)"),
    }
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, (name, (x_key, x_label)) in zip(axes, series.items()):
        runs = [r for r in rows if r["series"] == name]
        xs = [float(r[x_key]) for r in runs]
        seconds = [float(r["seconds"]) for r in runs]
        megabytes = [float(r["peak_rss_mb"]) for r in runs]
        time_exponent = slope(xs, seconds)
        memory_exponent = slope(xs, megabytes)
        print(f"{name}: time grows as size^{time_exponent:.2f}, peak memory as size^{memory_exponent:.2f}")
        ax.loglog(xs, seconds, "o-", color="tab:blue", label=f"whole process, s (exponent {time_exponent:.2f})")
        ax.set_xlabel(x_label)
        ax.set_ylabel("seconds", color="tab:blue")
        memory = ax.twinx()
        memory.set_yscale("log")
        memory.plot(xs, megabytes, "s--", color="tab:red", label=f"peak RSS, MB (exponent {memory_exponent:.2f})")
        memory.set_ylabel("MB", color="tab:red")
        if name == "cluster":
            off = [r for r in rows if r["series"] == "cluster-network-off"]
            off_x = [float(r[x_key]) for r in off]
            off_seconds = [float(r["seconds"]) for r in off]
            off_exponent = slope(off_x, off_seconds)
            print(f"cluster, network model off: time grows as size^{off_exponent:.2f}")
            ax.loglog(off_x, off_seconds, "o:", color="tab:green",
                      label=f"network model off, s (exponent {off_exponent:.2f})")
        lines = ax.get_lines() + memory.get_lines()
        ax.legend(lines, [line.get_label() for line in lines], loc="upper left", fontsize=8)
    fig.suptitle("acmesim: cost against workload and cluster size (easy-backfill, network model on, one core)")
    fig.tight_layout()
    fig.savefig(svg_path, metadata={"Date": None})  # no timestamp: the same figures make the same file


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
