"""Shortest job first, with an EASY reservation for the first job that does not fit.

A scheduler for acmesim written in Python (docs/writing-a-scheduler.md); examples/cpp/sjf_easy.cpp is the
same policy in C++, and the two give identical results.

Queued jobs go in order of their runtime estimate (the recorded duration; submission order breaks
ties). Jobs start in that order while they fit. The first one that does not fit gets a
reservation: the earliest time enough GPUs free up, from the estimated ends of the running jobs
(its shadow time). A job behind it may start now if it is estimated to end by then, or if the GPUs
it takes are not needed by the reserved job at the shadow time.
"""


class SjfEasy:
    """shortest job first, with an EASY reservation for the first job that does not fit"""

    name = "sjf-easy"
    params = {"depth": {"default": 1000, "min": 1, "max": 1e9, "integer": True,
                        "help": "queued jobs examined behind the reserved one, per pass"}}

    def __init__(self, params):
        self.depth = params["depth"]
        self.ends = {}  # running job -> estimated end, kept from our starts and the events
        self.started = {}  # job -> allocation, of the jobs started in this call (not running yet)

    def start(self, view, job, allocation):
        view.start(job, allocation)
        self.ends[job] = view.now + view.job(job).duration_s
        self.started[job] = allocation

    def allocation(self, view, job):
        return self.started[job] if job in self.started else view.running(job)[1]

    def decide(self, view, events):
        self.started = {}
        for event in events:
            if event.kind in ("finished", "requeued"):
                self.ends.pop(event.job, None)
        order = sorted(view.queue(), key=lambda job: view.job(job).duration_s)
        i = 0
        while i < len(order):
            allocation = view.place(view.job(order[i]).gpus)
            if allocation is None:
                break
            self.start(view, order[i], allocation)
            i += 1
        if i == len(order):
            return
        # The reservation of the first job that did not fit: release running jobs in order of
        # estimated end until it fits.
        head = view.job(order[i])
        at_shadow = view.capacity()
        shadow = view.now
        for job, end in sorted(self.ends.items(), key=lambda item: (item[1], item[0])):
            if at_shadow.fits(head.gpus):
                break
            at_shadow.give_back(self.allocation(view, job))
            shadow = end
        examined = 0
        for job in order[i + 1:]:
            if examined >= self.depth or view.free_gpus_total() == 0:
                break
            examined += 1
            gpus = view.job(job).gpus
            allocation = view.place(gpus)
            if allocation is None:
                continue
            if view.now + view.job(job).duration_s <= shadow:
                self.start(view, job, allocation)
                continue
            # Runs past the shadow time: only on GPUs the reserved job does not need then.
            at_shadow.take(allocation)
            if at_shadow.fits(head.gpus):
                self.start(view, job, allocation)
            else:
                at_shadow.give_back(allocation)
