"""Writes llama3-405b.csv, the jobs of scenarios/llama3-405b.yaml, in the Acme trace format.

Job l0000 is Llama 3 405B's pretraining: 16,384 GPUs (2,048 nodes of 8) and 54 days of training
work, submitted first (arXiv 2407.21783 §3.3.4: a 54-day snapshot of the run). The report says
nothing of the rest of the cluster's work; the other jobs are an assumption, drawn with a fixed
seed: fine-tuning and ablation runs of 256 to 2,048 GPUs lasting 6 to 48 hours, and evaluation
jobs of 8 GPUs lasting 30 minutes to 3 hours, arriving evenly over the 54 days. Together they offer
about a third of the other 8,192 GPUs' time.

Usage: python3 scenarios/traces/llama3-405b.py   (rewrites scenarios/traces/llama3-405b.csv)
"""
import csv
import datetime
import pathlib
import random

DAYS = 54
START = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone(datetime.timedelta(hours=8)))
CPUS_PER_GPU = 16


def row(job_id, user, gpus, job_type, submit_s, duration_s):
    submit = START + datetime.timedelta(seconds=submit_s)
    end = submit + datetime.timedelta(seconds=duration_s)
    stamp = lambda t: t.isoformat(sep=" ")
    return [job_id, user, max(1, gpus // 8), gpus, gpus * CPUS_PER_GPU, job_type, "COMPLETED", stamp(submit),
            stamp(submit), stamp(end), duration_s, 1, gpus * duration_s]


def main():
    rng = random.Random(405)
    rows = [row("l0000", "u0", 16384, "Pretrain", 0, DAYS * 86400)]
    others = []
    for _ in range(120):
        others.append(("SFT", rng.choice([256, 512, 1024, 2048]), rng.randint(6 * 3600, 48 * 3600)))
    for _ in range(1500):
        others.append(("Eval", 8, rng.randint(1800, 3 * 3600)))
    submits = sorted(rng.randint(60, DAYS * 86400) for _ in others)
    rng.shuffle(others)
    for i, ((job_type, gpus, duration_s), submit_s) in enumerate(zip(others, submits), start=1):
        rows.append(row(f"l{i:04d}", f"u{1 + rng.randrange(40)}", gpus, job_type, submit_s, duration_s))
    out = pathlib.Path(__file__).with_suffix(".csv")
    with out.open("w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["job_id", "user", "node_num", "gpu_num", "cpu_num", "type", "state", "submit_time",
                         "start_time", "end_time", "duration", "queue", "gpu_time"])
        writer.writerows(rows)


if __name__ == "__main__":
    main()
