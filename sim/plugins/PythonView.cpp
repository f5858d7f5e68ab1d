#include "sim/plugins/PythonView.hpp"

#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace acmesim {

namespace {

// An allocation as Python sees it: a list of (node, gpus), by node.
using PyAllocation = std::vector<std::pair<NodeId, int>>;

Allocation to_allocation(const PyAllocation& parts)
{
  Allocation allocation;
  for (const auto& [node, gpus] : parts)
    allocation.parts.push_back({node, gpus});
  return allocation;
}

PyAllocation to_python(const Allocation& allocation)
{
  PyAllocation parts;
  for (const auto& part : allocation.parts)
    parts.emplace_back(part.node, part.gpus);
  return parts;
}

const char* kind_name(EventKind kind)
{
  switch (kind) {
    case EventKind::JobFinished:
      return "finished";
    case EventKind::NodeDown:
      return "node_down";
    case EventKind::NodeUp:
      return "node_up";
    case EventKind::JobRequeued:
      return "requeued";
    case EventKind::JobSubmitted:
      return "submitted";
  }
  return "unknown";
}

// The GPUs of `allocation` taken on `state`, or a Python ValueError saying why they cannot be.
void take(CapacityProfile& state, const Allocation& allocation)
{
  for (const auto& part : allocation.parts) {
    if (part.node >= state.node_count())
      throw py::value_error("node " + std::to_string(part.node) + " does not exist");
    if (state.free_gpus(part.node) < part.gpus)
      throw py::value_error("node " + std::to_string(part.node) + " has " + std::to_string(state.free_gpus(part.node)) +
                            " free GPUs, not " + std::to_string(part.gpus));
  }
  state.take(allocation);
}

} // namespace

const ClusterView& PythonView::view() const
{
  if (!view_)
    throw py::value_error("the view is valid only during the decide call it was given to");
  return *view_;
}

JobId PythonView::job_id(JobId id) const
{
  if (id >= view().job_count())
    throw py::value_error("job " + std::to_string(id) + " does not exist");
  return id;
}

NodeId PythonView::node(NodeId n) const
{
  if (n >= view().topology().node_count())
    throw py::value_error("node " + std::to_string(n) + " does not exist");
  return n;
}

ClusterState& PythonView::scratch()
{
  if (!scratch_)
    scratch_.emplace(view().cluster());
  return *scratch_;
}

void PythonView::start(JobId job, const Allocation& allocation)
{
  // Raised here, not found after the call: the traceback then shows the line that did it.
  if (!view().queue().contains(job_id(job)))
    throw py::value_error("job " + std::to_string(job) + " is not queued: a policy starts only jobs of view.queue()");
  if (started_.contains(job))
    throw py::value_error("job " + std::to_string(job) + " was already started in this call");
  take(scratch(), allocation);
  started_.insert(job);
  StartDecision decision;
  decision.job = job;
  decision.allocation = allocation;
  out_->starts.push_back(std::move(decision));
}

void PythonView::preempt(JobId job)
{
  if (!view().preemptible(job_id(job)))
    throw py::value_error("job " + std::to_string(job) + " is not a running job that may be preempted now");
  scratch().give_back(view().running(job).allocation);
  out_->preempts.push_back(job);
}

void PythonView::wake_at(double time)
{
  view();
  // std::min would drop a NaN without a word (every comparison with it is false); a time in the
  // past is refused with the decisions (CheckedScheduler), as for a C++ plugin.
  if (std::isnan(time))
    throw py::value_error("wake_at needs a time in seconds, not NaN");
  out_->wake_at = std::min(out_->wake_at, time);
}

void register_python_module() {}

} // namespace acmesim

// The module policies import: `import acmesim` (docs/writing-a-scheduler.md lists every name).
PYBIND11_EMBEDDED_MODULE(acmesim, m)
{
  using namespace acmesim;
  m.doc() = "What a scheduler written in Python sees and decides through (docs/writing-a-scheduler.md).";

  py::class_<Job>(m, "Job", "A job of the run (read-only).")
      .def_readonly("id", &Job::id)
      .def_readonly("name", &Job::name)
      .def_property_readonly("user", [](const Job& j) { return j.user.get(); })
      .def_property_readonly("type", [](const Job& j) { return std::string(to_string(j.type)); })
      .def_readonly("gpus", &Job::gpus)
      .def_readonly("submit_s", &Job::submit_s)
      .def_readonly("duration_s", &Job::duration_s,
                    "its recorded run time, which a real scheduler does not know (view.estimate_s(id): its estimate)")
      .def_readonly("requested_s", &Job::requested_s, "the run time its user requested; -1 if the source records none")
      .def_readonly("pod", &Job::pod, "the pod it is bound to, -1 if any")
      .def_property_readonly("eval_trial", &Job::eval_trial);

  py::class_<SchedulerEvent>(m, "Event", "What happened since the last call.")
      .def_property_readonly("kind", [](const SchedulerEvent& e) { return kind_name(e.kind); },
                             "finished, node_down, node_up, requeued or submitted")
      .def_readonly("time", &SchedulerEvent::time)
      .def_readonly("job", &SchedulerEvent::job)
      .def_readonly("node", &SchedulerEvent::node);

  py::class_<CapacityProfile>(m, "Capacity", "Free GPUs per node, to ask what-if questions (reservations).")
      .def("fits", &CapacityProfile::fits, py::arg("gpus"), "could a job of this many GPUs start?")
      .def("free_gpus", [](const CapacityProfile& c, NodeId n) {
             if (n >= c.node_count())
               throw py::value_error("node " + std::to_string(n) + " does not exist");
             return c.free_gpus(n);
           }, py::arg("node"))
      .def("take", [](CapacityProfile& c, const PyAllocation& a) { take(c, to_allocation(a)); }, py::arg("allocation"))
      .def("give_back", [](CapacityProfile& c, const PyAllocation& a) { c.give_back(to_allocation(a)); },
           py::arg("allocation"));

  py::class_<PythonView, std::shared_ptr<PythonView>>(m, "View",
                                                      "The run as the scheduler sees it during one call, and its decisions.")
      .def_property_readonly("now", [](const PythonView& v) { return v.view().now(); })
      .def("queue", [](const PythonView& v) { return std::vector<JobId>(v.view().queue().begin(), v.view().queue().end()); },
           "ids of the jobs waiting, in submission order")
      .def("job", [](const PythonView& v, JobId id) -> const Job& { return v.view().job(v.job_id(id)); },
           py::return_value_policy::reference, py::arg("id"))
      .def("running", [](const PythonView& v, JobId id) {
             const RunningJob r = v.view().running(v.job_id(id)); // raises if it holds no GPUs
             return std::make_pair(r.start_s, to_python(r.allocation));
           }, py::arg("id"), "(start time, allocation) of a job holding GPUs")
      .def("running_jobs", [](const PythonView& v) {
             py::list all;
             for (const RunningJob& r : v.view().running_jobs())
               all.append(py::dict(py::arg("job") = r.job, py::arg("start_s") = r.start_s,
                                   py::arg("estimated_end_s") = r.estimated_end_s,
                                   py::arg("allocation") = to_python(r.allocation)));
             return all;
           }, "every job holding GPUs, by id: {job, start_s, estimated_end_s, allocation}")
      .def("estimate_s", [](const PythonView& v, JobId id) { return v.view().estimate_s(v.job_id(id)); },
           py::arg("id"), "the run time the run's estimate model expects of a job (workload.estimates)")
      .def_property_readonly("estimates", [](const PythonView& v) {
             const RuntimeEstimates& e = v.view().estimates();
             return py::dict(py::arg("model") = std::string(to_string(e.model)), py::arg("factor") = e.factor);
           }, "the run's estimate model: {model: actual | factor, factor}")
      .def("preemptible", [](const PythonView& v, JobId id) { return v.view().preemptible(v.job_id(id)); }, py::arg("id"))
      .def("communication", [](const PythonView& v, JobId id) -> std::optional<py::dict> {
             const auto c = v.view().communication(v.job_id(id));
             if (!c)
               return std::nullopt;
             py::list links;
             for (const CommLink& l : c->links) {
               py::dict link;
               link["name"] = l.name;
               link["leaf"] = l.leaf;
               link["uplink"] = l.uplink;
               link["up"] = l.up;
               link["flows"] = l.flows;
               link["core"] = l.core;
               links.append(link);
             }
             py::dict d;
             d["step_s"] = c->step_s;
             d["sending_s"] = c->sending_s;
             d["silent_s"] = c->silent_s();
             d["bytes"] = c->bytes;
             d["mean_Bps"] = c->mean_Bps();
             d["rate_Bps"] = c->rate_Bps;
             d["alone_Bps"] = c->alone_Bps;
             d["slowdown"] = c->slowdown;
             d["paused"] = c->paused;
             d["links"] = links;
             return d;
           }, py::arg("id"), "what a running job's ring sends a step and the links it crosses, or None")
      .def("eval_trial", [](const PythonView& v, JobId id) {
             if (!v.view().job(v.job_id(id)).eval_trial())
               throw py::value_error("job " + std::to_string(id) + " is no evaluation trial");
             const EvalChunk& c = v.view().eval_chunk(id);
             py::dict d;
             d["campaign"] = c.campaign;
             d["dataset"] = c.dataset;
             d["chunk"] = c.chunk;
             d["chunks"] = c.chunks;
             d["preprocess_s"] = c.preprocess_s;
             d["inference_s"] = c.inference_s;
             d["metric_s"] = c.metric_s;
             d["model_bytes"] = c.model_bytes;
             return d;
           }, py::arg("id"), "the priors of an evaluation trial")
      .def_property_readonly("node_count", [](const PythonView& v) { return v.view().topology().node_count(); })
      .def("gpus_of", [](const PythonView& v, NodeId n) { return v.view().topology().gpus_of(v.node(n)); }, py::arg("node"))
      .def("pod_of", [](const PythonView& v, NodeId n) { return v.view().topology().pod_of(v.node(n)); }, py::arg("node"))
      .def("leaf_of", [](const PythonView& v, NodeId n) { return v.view().topology().leaf_of(v.node(n)); }, py::arg("node"))
      .def("node_name", [](const PythonView& v, NodeId n) { return v.view().topology().node_name(v.node(n)); }, py::arg("node"))
      .def("hops", [](const PythonView& v, NodeId a, NodeId b) { return v.view().topology().hop_distance(v.node(a), v.node(b)); },
           py::arg("a"), py::arg("b"), "switch hops between two nodes")
      .def("free_gpus", [](PythonView& v, NodeId n) { return v.scratch().free_gpus(v.node(n)); }, py::arg("node"),
           "with this call's decisions so far")
      .def("free_gpus_total", [](PythonView& v) { return v.scratch().free_gpus_total(); })
      .def("in_service", [](PythonView& v, NodeId n) { return v.scratch().in_service(v.node(n)); }, py::arg("node"))
      .def("capacity", [](PythonView& v) { return v.scratch().capacity(); },
           "a copy of the free GPUs, with this call's decisions so far, for what-if questions")
      .def("place", [](PythonView& v, int gpus) -> std::optional<PyAllocation> {
             const Allocation a = v.place(gpus);
             return a.empty() ? std::nullopt : std::optional(to_python(a));
           }, py::arg("gpus"), "where the scenario's placement policy puts a job now, or None if it does not fit")
      .def("start", [](PythonView& v, JobId job, const PyAllocation& a) { v.start(job, to_allocation(a)); },
           py::arg("job"), py::arg("allocation"), "start a queued job on [(node, gpus), ...]")
      .def("preempt", &PythonView::preempt, py::arg("job"))
      .def("wake_at", &PythonView::wake_at, py::arg("time"), "be called at this time even if nothing happens");
}
