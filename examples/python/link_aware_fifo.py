"""First come, first served, placing jobs that span leaves where the uplinks carry the least traffic.

A network-aware scheduler for acmesim written in Python (docs/writing-a-scheduler.md), after the
placement half of CASSINI (Rajasekaran, Ghobadi and Akella, NSDI'24): jobs whose communication
shares a link slow each other down, so a job that must cross the spines is placed where the
running jobs' rings load the uplinks least. (CASSINI also shifts the jobs' phases in time; acmesim
sets how bursts fall for the whole run, `network.phases`.)

Jobs start in submission order while they fit (a head that does not fit waits, and every job behind
it). A job that fits on one node, or in one leaf, goes where the scenario's placement policy puts
it. A job that needs whole nodes under several leaves takes them from the leaves whose uplinks carry
the least traffic now: the mean bytes a second of the rings of running jobs that cross them
(`view.communication`), then the leaves with the most free nodes, then the lowest leaf. With the
network model off no job has a ring, and the policy places as its placement policy does.
"""


class LinkAwareFifo:
    """FIFO; jobs across leaves go where running rings load the uplinks least (CASSINI's placement)"""

    name = "link-aware-fifo"
    params = {}

    def __init__(self, params):
        self.running = set()  # jobs this policy started that may still hold GPUs

    def decide(self, view, events):
        for event in events:
            if event.kind in ("finished", "requeued"):
                self.running.discard(event.job)
        for job in view.queue():
            allocation = self.place(view, view.job(job).gpus)
            if allocation is None:
                return
            view.start(job, allocation)
            self.running.add(job)

    def place(self, view, gpus):
        default = view.place(gpus)
        if default is None or len({view.leaf_of(node) for node, _ in default}) == 1:
            return default
        # Whole nodes of the pod the placement policy chose, from the quietest leaves first.
        pod = view.pod_of(default[0][0])
        per_node = default[0][1]
        free = {}
        for node in range(view.node_count):
            if view.pod_of(node) == pod and view.in_service(node) and view.free_gpus(node) == view.gpus_of(node):
                free.setdefault(view.leaf_of(node), []).append(node)
        load = self.uplink_load(view)
        chosen = []
        for leaf in sorted(free, key=lambda leaf: (load.get(leaf, 0.0), -len(free[leaf]), leaf)):
            chosen += free[leaf][: len(default) - len(chosen)]
            if len(chosen) == len(default):
                break
        return [(node, per_node) for node in sorted(chosen)]

    def uplink_load(self, view):
        """Bytes a second the sending rings of running jobs put on each leaf's uplinks, by leaf."""
        load = {}
        for job in self.running:
            c = view.communication(job)
            if c is None or c["paused"]:
                continue
            for link in c["links"]:
                if link["uplink"]:
                    load[link["leaf"]] = load.get(link["leaf"], 0.0) + c["mean_Bps"] * link["flows"]
        return load
