// timeline.json: Chrome trace events (docs/outputs.md), streamed event by event since a large
// run has millions of them. One process per node (pid = node + 1) with a health lane (tid 0)
// and one lane per GPU (tid k + 1 for GPU k); process 0 is the cluster: storage failures and the
// GPU counters. Times are integer nanoseconds of simulated time printed as microseconds, so
// pieces that meet on a lane meet exactly in the file too.
#include "sim/report/Reports.hpp"

#include "acmesim/Version.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <iterator>
#include <stdexcept>

namespace acmesim {

namespace {

constexpr int HEALTH_LANE = 0;

// A JSON string literal; bytes that are not UTF-8 (trace job names) are replaced.
std::string quoted(const std::string& text)
{
  return Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Microseconds from seconds, through integer nanoseconds: "3000000000.000".
std::string micros(double seconds)
{
  const auto ns = std::llround(seconds * 1e9);
  return fmt::format("{}.{:03}", ns / 1000, ns % 1000);
}

std::string duration_micros(double start_s, double end_s)
{
  const auto ns = std::llround(end_s * 1e9) - std::llround(start_s * 1e9);
  return fmt::format("{}.{:03}", ns / 1000, ns % 1000);
}

class EventStream {
public:
  explicit EventStream(std::ostream& out) : out_(out) {}
  void add(std::string_view event)
  {
    out_ << (first_ ? "\n" : ",\n") << event;
    first_ = false;
  }

private:
  std::ostream& out_;
  bool first_ = true;
};

void metadata(EventStream& events, const Topology& topology)
{
  events.add(R"({"name":"process_name","ph":"M","pid":0,"args":{"name":"cluster"}})");
  events.add(R"({"name":"process_sort_index","ph":"M","pid":0,"args":{"sort_index":0}})");
  events.add(R"({"name":"thread_name","ph":"M","pid":0,"tid":0,"args":{"name":"storage"}})");
  for (NodeId node = 0; node < topology.node_count(); ++node) {
    const int pid = static_cast<int>(node) + 1;
    const std::string& pod = topology.spec().pods[static_cast<std::size_t>(topology.pod_of(node))].name;
    events.add(fmt::format(R"({{"name":"process_name","ph":"M","pid":{},"args":{{"name":{}}}}})", pid,
                           quoted("pod " + pod + " / " + topology.node_name(node))));
    events.add(fmt::format(R"({{"name":"process_sort_index","ph":"M","pid":{},"args":{{"sort_index":{}}}}})", pid,
                           pid));
    events.add(fmt::format(R"({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":"health"}}}})", pid,
                           HEALTH_LANE));
    for (int gpu = 0; gpu < topology.gpus_of(node); ++gpu)
      events.add(fmt::format(R"({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":"GPU {}"}}}})",
                             pid, gpu + 1, gpu));
    for (int tid = 0; tid <= topology.gpus_of(node); ++tid)
      events.add(fmt::format(R"({{"name":"thread_sort_index","ph":"M","pid":{},"tid":{},"args":{{"sort_index":{}}}}})",
                             pid, tid, tid));
  }
}

// Each piece as one complete event per GPU lane it covers.
void gpu_pieces(EventStream& events, const JobTable& jobs, const RunTimeline& timeline)
{
  for (const GpuPiece& p : timeline.pieces()) {
    const Job& job = jobs.job(p.job);
    const std::string_view type = to_string(job.type);
    const bool running = p.kind == HoldKind::Attempt;
    // Everything but the lane is the same for every lane of the piece.
    const std::string head = fmt::format(R"({{"name":"job {} {}{}","cat":"{}","ph":"X","pid":{},)", p.job, type,
                                         running ? "" : " (failed)", type, p.node + 1);
    const std::string tail = fmt::format(
        R"("ts":{},"dur":{},{}"args":{{"job":{},"id":{},"type":"{}","gpus":{},"attempt":{},"state":"{}","ended":"{}"}}}})",
        micros(p.start_s), duration_micros(p.start_s, p.end_s), running ? "" : R"("cname":"bad",)", quoted(job.name),
        p.job, type, job.gpus, p.attempt, running ? "running" : "recovering", to_string(p.end));
    for (std::uint64_t lanes = p.lanes; lanes != 0; lanes &= lanes - 1)
      events.add(fmt::format(R"({}"tid":{},{})", head, std::countr_zero(lanes) + 1, tail));
  }
}

void node_intervals(EventStream& events, const Topology& topology, const RunTimeline& timeline, double makespan_s)
{
  for (const NodeInterval& n : timeline.node_intervals(makespan_s)) {
    const bool down = n.health == NodeHealth::Down;
    std::string args = fmt::format(R"("node":{})", quoted(topology.node_name(n.node)));
    if (down)
      args += fmt::format(R"(,"cause":"{}","component":"{}")", to_string(n.cause.category),
                          to_string(n.cause.component));
    if (n.until_run_end)
      args += R"(,"until_run_end":true)";
    events.add(fmt::format(R"({{"name":"{}","cat":"node","ph":"X","pid":{},"tid":{},"ts":{},"dur":{},{}"args":{{{}}}}})",
                           down ? "down" : "spare", n.node + 1, HEALTH_LANE, micros(n.start_s),
                           duration_micros(n.start_s, n.end_s), down ? R"("cname":"terrible",)" : "", args));
  }
}

std::string target_name(const Topology& topology, const FailureEvent& e)
{
  switch (e.component) {
    case Component::Storage:
      return "storage";
    case Component::LeafSwitch:
      return topology.graph()[topology.leaf_vertex(e.target)].name;
    default:
      return topology.node_name(e.target);
  }
}

// Applied failures as instants on the health lane of each node they hit (all the nodes of a
// leaf switch), storage failures on the cluster's storage lane.
void failures(EventStream& events, const Topology& topology, const std::vector<FailureEvent>& applied)
{
  for (const FailureEvent& e : applied) {
    const std::string args = fmt::format(
        R"({{"category":"{}","component":"{}","target":{},"repair_s":{},"replacement":{}}})", to_string(e.category),
        to_string(e.component), quoted(target_name(topology, e)), Json(e.repair_s).dump(), e.replacement);
    const std::string body = fmt::format(R"("name":"failure: {}","cat":"failure","ph":"i","s":"p","ts":{},"args":{})",
                                         to_string(e.category), micros(e.time_s), args);
    std::vector<NodeId> nodes;
    if (e.component == Component::LeafSwitch)
      nodes = topology.nodes_of_leaf(e.target);
    else if (e.component != Component::Storage)
      nodes = {e.target};
    if (nodes.empty())
      events.add(fmt::format(R"({{"pid":0,"tid":0,{}}})", body));
    for (NodeId node : nodes)
      events.add(fmt::format(R"({{"pid":{},"tid":{},{}}})", node + 1, HEALTH_LANE, body));
  }
}

// Each change of a training job's speed as an instant across the first node it holds (none with
// the network model off).
void speed_marks(EventStream& events, const RunTimeline& timeline)
{
  for (const SpeedMark& m : timeline.speed_marks())
    events.add(fmt::format(
        R"({{"name":"job {} speed","cat":"network","ph":"i","s":"p","pid":{},"tid":{},"ts":{},"args":{{"job":{},"slowdown_from":{},"slowdown_to":{}}}}})",
        m.job, m.node + 1, HEALTH_LANE, micros(m.now_s), m.job, Json(m.from).dump(), Json(m.to).dump()));
}

// Mean GPUs busy, held by jobs (any state of a job's GPUs) and down, per utilisation bin.
void counters(EventStream& events, const Ledger& ledger)
{
  const auto at = [](const StateSeconds& bin, GpuState s) { return bin[static_cast<std::size_t>(s)]; };
  const auto& series = ledger.series();
  for (std::size_t k = 0; k < series.size(); ++k) {
    const double start = ledger.start() + static_cast<double>(k) * ledger.bin_width();
    const double end = std::min(ledger.start() + static_cast<double>(k + 1) * ledger.bin_width(), ledger.now());
    if (!(end > start))
      continue;
    const StateSeconds& bin = series[k];
    double held = 0;
    for (double s : bin)
      held += s;
    held -= at(bin, GpuState::Idle) + at(bin, GpuState::Down) + at(bin, GpuState::Spare);
    const double width = end - start;
    events.add(fmt::format(R"({{"name":"GPUs","ph":"C","pid":0,"ts":{},"args":{{"busy":{:.6f},"held":{:.6f},"down":{:.6f}}}}})",
                           micros(start), at(bin, GpuState::Busy) / width, held / width,
                           at(bin, GpuState::Down) / width));
  }
}

} // namespace

void write_timeline_json(std::ostream& out, const Scenario& scenario, const RunResult& result)
{
  const RunTimeline* timeline = result.run->timeline();
  if (!timeline)
    throw std::logic_error("timeline.json asked for a run that recorded no timeline");
  const Topology& topology = *result.topology;
  out << R"({"traceEvents":[)";
  EventStream events(out);
  metadata(events, topology);
  counters(events, result.run->ledger());
  node_intervals(events, topology, *timeline, result.makespan_s);
  failures(events, topology, result.run->statistics().applied_failures());
  gpu_pieces(events, result.run->jobs(), *timeline);
  speed_marks(events, *timeline);
  const Json other{{"program", std::string("acmesim ") + VERSION},
                   {"scenario", scenario.name},
                   {"seed", scenario.seed},
                   {"makespan_s", result.makespan_s},
                   {"time_unit", "ts and dur: microseconds of simulated time"}};
  out << "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":"
      << other.dump(-1, ' ', false, Json::error_handler_t::replace) << "}\n";
}

} // namespace acmesim
