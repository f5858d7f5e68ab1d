"""Prints the --set arguments that scale a scenario's cluster and workload to a number of GPUs.

Usage: scale_scenario.py SUMMARY_JSON GPUS
       scale_scenario.py SUMMARY_JSON          (prints the cluster's GPUs, what GPUS is scaled from)

SUMMARY_JSON is the summary.json of a run of the scenario, whose `scenario` echo says the pods,
the storage service and the synthetic job types as acmesim read them. Every pod's node count is
scaled by GPUS over the cluster's GPUs (rounded so the total is GPUS exactly), its spine radix is
left to be derived (a bigger pod needs more spine ports), and the storage bandwidth and every
type's arrival rate are scaled by the same factor, so the load per GPU stays the same. One
argument per line, for bash's mapfile.
"""
import json
import sys


def cluster_gpus(pods):
    return sum(p["nodes"] * p["gpus_per_node"] for p in pods)


def main(summary_path, gpus):
    with open(summary_path) as f:
        scenario = json.load(f)["scenario"]
    pods = scenario["cluster"]["pods"]
    if gpus is None:
        print(cluster_gpus(pods))
        return
    factor = gpus / cluster_gpus(pods)
    args = []
    placed = 0
    for i, pod in enumerate(pods):
        if i + 1 < len(pods):
            nodes = round(pod["nodes"] * factor)
        else:  # the last pod takes what is left, so the GPUs add up
            nodes = (gpus - placed) // pod["gpus_per_node"]
        placed += nodes * pod["gpus_per_node"]
        args += [f"cluster.pods.{i}.nodes={nodes}", f"cluster.pods.{i}.fabric.spine_radix=0"]
    if placed != gpus:
        sys.exit(f"scale_scenario: {gpus} GPUs do not split into whole nodes of these pods")
    args.append(f"cluster.storage.bandwidth_GBps={scenario['cluster']['storage']['bandwidth_GBps'] * factor:g}")
    for name, job_type in scenario["workload"]["synthetic"]["types"].items():
        args.append(f"workload.synthetic.types.{name}.arrivals_per_hour={job_type['arrivals_per_hour'] * factor:g}")
    for arg in args:
        print("--set")
        print(arg)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else None)
