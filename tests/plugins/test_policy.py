"""First come, first served, for the tests (or misbehaving on purpose)."""

import acmesim  # the module the binary embeds: what a policy may import


class Fifo:
    """first come, first served, in Python"""

    name = "py-fifo"
    params = {"mode": {"default": 0, "min": 0, "max": 3, "integer": True,
                       "help": "0: fifo, 1: raise at 100 s, 2: start a job twice, 3: keep the view"}}

    def __init__(self, params):
        self.mode = params["mode"]
        self.calls = 0  # state kept across calls
        self.kept = None

    def decide(self, view, events):
        assert isinstance(view, acmesim.View)
        self.calls += 1
        if self.mode == 1 and view.now >= 100:
            raise RuntimeError(f"giving up after {self.calls} calls")
        if self.mode == 3 and self.kept is not None:
            self.kept.queue()  # a view of an earlier call: raises
        self.kept = view
        for job in view.queue():
            record = view.job(job)
            assert isinstance(record.user, str) and isinstance(record.name, str), "job text is not str"
            allocation = view.place(record.gpus)
            if allocation is None:
                return
            view.start(job, allocation)
            if self.mode == 2:
                view.start(job, allocation)


class NoDecide:
    """a class without decide"""


BROKEN = {"mode": "not a number"}


class BadParams:
    """params that are not numbers"""

    params = BROKEN

    def decide(self, view, events):
        pass
