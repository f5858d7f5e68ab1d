#include "models/failure/FailureModel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <queue>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace acmesim {

namespace {

constexpr double INF = std::numeric_limits<double>::infinity();

std::size_t idx(Component c) { return static_cast<std::size_t>(c); }

// The components whose failures take one node out of service, and whose rate lemon
// multipliers scale.
bool is_node_level(Component c)
{
  return c == Component::Node || c == Component::Gpu || c == Component::NvLink || c == Component::Nic;
}

// The same distribution for a process `factor` times as frequent. Every kind's mean is linear
// in the parameter divided here (mean, Weibull scale, lognormal median, fixed value), so the
// rate is multiplied by exactly `factor` and the shape (Weibull k, lognormal sigma) is kept.
DurationDistribution faster(DurationDistribution d, double factor)
{
  d.mean_s /= factor;
  d.scale_s /= factor;
  d.median_s /= factor;
  d.value_s /= factor;
  return d;
}

// What a failure is reported as when a hand-built spec gives no category list.
FailureCategory fallback_category(Component c)
{
  switch (c) {
  case Component::Gpu:
    return FailureCategory::CudaError;
  case Component::NvLink:
    return FailureCategory::NvlinkError;
  case Component::Nic:
  case Component::LeafSwitch:
    return FailureCategory::NetworkError;
  case Component::Storage:
    return FailureCategory::StorageError;
  case Component::Node:
    break;
  }
  return FailureCategory::NodeFailure;
}

// One uniform draw, always taken, so that the stream's later draws do not depend on the list.
FailureCategory draw_category(const ComponentFailureSpec& spec, Component c, RandomEngine& rng)
{
  const double u = uniform01(rng);
  double total = 0;
  for (const auto& [category, weight] : spec.categories)
    total += weight;
  double cumulative = 0;
  std::optional<FailureCategory> last;
  for (const auto& [category, weight] : spec.categories) {
    if (weight <= 0)
      continue;
    cumulative += weight / total;
    last = category;
    if (u < cumulative)
      return category;
  }
  return last.value_or(fallback_category(c)); // rounding left u above the last cumulative weight
}

// Repair kind (one draw), then its duration from the chosen distribution.
void draw_repair(const ComponentFailureSpec& spec, RandomEngine& rng, FailureEvent& event)
{
  event.replacement = !(uniform01(rng) < spec.reboot_share);
  event.repair_s = std::max(0.0, (event.replacement ? spec.replacement_time : spec.reboot_time).sample(rng));
}

// Nodes of the pool picked as lemons: uniform without replacement (partial Fisher-Yates).
std::vector<NodeId> choose_lemons(std::size_t node_count, int count, std::uint64_t seed)
{
  const std::size_t k = std::min<std::size_t>(node_count, static_cast<std::size_t>(std::max(count, 0)));
  std::vector<NodeId> pool(node_count);
  for (std::size_t i = 0; i < node_count; ++i)
    pool[i] = static_cast<NodeId>(i);
  RandomEngine rng = make_stream(seed, "failures.lemons");
  for (std::size_t i = 0; i < k; ++i) {
    const auto offset = static_cast<std::size_t>(uniform01(rng) * static_cast<double>(node_count - i));
    std::swap(pool[i], pool[std::min(i + offset, node_count - 1)]);
  }
  pool.resize(k);
  std::sort(pool.begin(), pool.end());
  return pool;
}

std::vector<double> rate_multipliers(const FailureSpec& spec, const Topology& topology,
                                     const std::vector<NodeId>& chosen)
{
  std::vector<double> mult(topology.node_count(), 1.0);
  for (const NodeId n : chosen)
    mult[n] = spec.lemon_multiplier;
  if (!spec.node_rate_multipliers.empty()) {
    std::unordered_map<std::string, NodeId> by_name;
    for (NodeId n = 0; n < topology.node_count(); ++n)
      by_name.emplace(topology.node_name(n), n);
    // Unknown names are reported by check_failures_against_topology; here they are ignored.
    for (const auto& [name, m] : spec.node_rate_multipliers)
      if (const auto it = by_name.find(name); it != by_name.end())
        mult[it->second] = m;
  }
  return mult;
}

} // namespace

struct FailureModel::Impl {
  // One renewal process: an instance's base failures, or a lemon instance's excess failures.
  struct Process {
    Component component = Component::Node;
    std::uint32_t target = 0;
    bool excess = false;
    DurationDistribution tbf;
    RandomEngine rng;
    FailureEvent next;                     // drawn ahead, so that ties can be ordered
    std::optional<FailureEvent> neighbour; // the node it also takes down, if any
  };

  struct Key {
    double time;
    Component component;
    std::uint32_t target;
    std::uint32_t process;
  };
  // Min-heap order on (time, component, target, process index).
  struct Later {
    bool operator()(const Key& a, const Key& b) const
    {
      if (a.time != b.time)
        return a.time > b.time;
      if (a.component != b.component)
        return a.component > b.component;
      if (a.target != b.target)
        return a.target > b.target;
      return a.process > b.process;
    }
  };

  FailureSpec spec;
  std::vector<Process> processes;
  std::priority_queue<Key, std::vector<Key>, Later> heap;
  std::optional<FailureEvent> pending; // a neighbour failure, returned right after its cause
  std::vector<std::optional<NodeId>> neighbour_of; // next node on the same leaf, wrapping
  std::vector<double> multiplier;
  std::vector<NodeId> lemons;

  void add(Component c, std::uint32_t target, const std::string& stream, bool excess,
           const DurationDistribution& tbf, std::uint64_t seed)
  {
    processes.push_back(Process{c, target, excess, tbf, make_stream(seed, stream), {}, std::nullopt});
    schedule(static_cast<std::uint32_t>(processes.size() - 1), 0);
  }

  // Draws the process's next failure after `from`. Draw order on its stream: time between
  // failures, category, repair kind, repair time; for node-level components then always the
  // neighbour test, the neighbour's repair kind and time (taken even when unused, so that the
  // neighbour probability never shifts a process's own failures).
  void schedule(std::uint32_t p, double from)
  {
    Process& proc = processes[p];
    const ComponentFailureSpec& cs = spec.components[idx(proc.component)];
    FailureEvent& e = proc.next;
    e = FailureEvent{};
    e.time_s = from + std::max(0.0, proc.tbf.sample(proc.rng));
    e.component = proc.component;
    e.target = proc.target;
    e.category = draw_category(cs, proc.component, proc.rng);
    draw_repair(cs, proc.rng, e);
    e.excess = proc.excess;
    proc.neighbour.reset();
    if (is_node_level(proc.component)) {
      const bool hit = uniform01(proc.rng) < spec.neighbour_probability;
      FailureEvent n;
      n.time_s = e.time_s;
      n.component = Component::Node;
      n.category = e.category;
      draw_repair(spec.components[idx(Component::Node)], proc.rng, n);
      if (hit && neighbour_of[proc.target]) {
        n.target = *neighbour_of[proc.target];
        proc.neighbour = n;
      }
    }
    if (std::isfinite(e.time_s))
      heap.push(Key{e.time_s, e.component, e.target, p});
  }
};

FailureModel::FailureModel(const FailureSpec& spec, const Topology& topology, std::uint64_t seed)
    : impl_(std::make_unique<Impl>())
{
  Impl& m = *impl_;
  m.spec = spec;
  const std::size_t nodes = topology.node_count();
  m.neighbour_of.resize(nodes);
  for (LeafId leaf = 0; leaf < topology.leaf_count(); ++leaf) {
    const auto& under = topology.nodes_of_leaf(leaf);
    if (under.size() > 1)
      for (std::size_t i = 0; i < under.size(); ++i)
        m.neighbour_of[under[i]] = under[(i + 1) % under.size()];
  }
  m.multiplier = rate_multipliers(spec, topology, choose_lemons(nodes, spec.lemon_nodes, seed));
  for (NodeId n = 0; n < nodes; ++n)
    if (m.multiplier[n] > 1)
      m.lemons.push_back(n);

  for (const Component c : enum_values<Component>()) {
    const ComponentFailureSpec& cs = spec.components[idx(c)];
    if (!cs.enabled)
      continue;
    const std::string prefix = "failures." + std::string(to_string(c)) + ".";
    if (c == Component::LeafSwitch) {
      for (LeafId leaf = 0; leaf < topology.leaf_count(); ++leaf)
        m.add(c, leaf, prefix + std::to_string(leaf), false, cs.time_between_failures, seed);
      continue;
    }
    if (c == Component::Storage) {
      m.add(c, 0, prefix + "0", false, cs.time_between_failures, seed);
      continue;
    }
    // Node-level: instances numbered across the cluster (GPUs node by node).
    std::uint64_t index = 0;
    for (NodeId n = 0; n < nodes; ++n) {
      const int per_node = c == Component::Gpu ? topology.gpus_of(n) : 1;
      const double mult = m.multiplier[n];
      for (int i = 0; i < per_node; ++i, ++index) {
        const std::string stream = prefix + std::to_string(index);
        if (mult <= 0) // never fails
          continue;
        const DurationDistribution& base = cs.time_between_failures;
        m.add(c, n, stream, false, mult < 1 ? faster(base, mult) : base, seed);
        if (mult > 1)
          m.add(c, n, stream + ".excess", true, faster(base, mult - 1), seed);
      }
    }
  }
}

FailureModel::~FailureModel() = default;

double FailureModel::next_time() const
{
  if (impl_->pending)
    return impl_->pending->time_s;
  return impl_->heap.empty() ? INF : impl_->heap.top().time;
}

FailureEvent FailureModel::pop()
{
  Impl& m = *impl_;
  if (m.pending) {
    const FailureEvent e = *m.pending;
    m.pending.reset();
    return e;
  }
  if (m.heap.empty())
    throw std::logic_error("FailureModel::pop: no failure left");
  const std::uint32_t p = m.heap.top().process;
  m.heap.pop();
  Impl::Process& proc = m.processes[p];
  const FailureEvent e = proc.next;
  m.pending = proc.neighbour;
  // Renewal: the instance runs again once repaired, then waits a fresh time between failures.
  m.schedule(p, e.time_s + e.repair_s);
  return e;
}

const std::vector<NodeId>& FailureModel::lemon_nodes() const { return impl_->lemons; }

double FailureModel::rate_multiplier(NodeId node) const { return impl_->multiplier.at(node); }

double expected_job_failure_rate(const FailureSpec& spec, const Topology& topology, int pod, int nodes)
{
  if (spec.source != FailureSpec::Source::Model || nodes <= 0)
    return 0;
  if (pod < 0 || static_cast<std::size_t>(pod) >= topology.pod_count())
    throw std::out_of_range("expected_job_failure_rate: pod " + std::to_string(pod) + " out of range");
  const PodSpec& ps = topology.spec().pods[static_cast<std::size_t>(pod)];
  auto rate_of = [&](Component c) {
    const ComponentFailureSpec& cs = spec.components[idx(c)];
    const double mean = cs.time_between_failures.mean();
    return cs.enabled && mean > 0 && std::isfinite(mean) ? 1 / mean : 0.0;
  };

  double per_node = 0;
  for (const Component c : {Component::Node, Component::Gpu, Component::NvLink, Component::Nic})
    per_node += rate_of(c) * (c == Component::Gpu ? ps.gpus_per_node : 1);

  // Mean multiplier over the pod: named nodes have theirs; any other node is one of the
  // seed's lemons with probability lemon_nodes / node count.
  const std::size_t total = topology.node_count();
  const double lemon_p =
      total == 0 ? 0
                 : static_cast<double>(std::min(total, static_cast<std::size_t>(std::max(spec.lemon_nodes, 0)))) /
                       static_cast<double>(total);
  std::unordered_map<std::string, double> named;
  for (const auto& [name, m] : spec.node_rate_multipliers)
    named[name] = m; // the last one wins, as in the model
  double sum = 0;
  const NodeId first = topology.first_node_of_pod(pod);
  for (NodeId n = first; n < first + static_cast<NodeId>(ps.nodes); ++n) {
    const auto it = named.find(topology.node_name(n));
    sum += it != named.end() ? it->second : 1 + lemon_p * (spec.lemon_multiplier - 1);
  }
  const double mean_multiplier = ps.nodes > 0 ? sum / ps.nodes : 1;

  const int per_leaf = derived_nodes_per_leaf(ps);
  const double leaves = std::ceil(static_cast<double>(nodes) / per_leaf);
  return nodes * per_node * mean_multiplier + leaves * rate_of(Component::LeafSwitch);
}

} // namespace acmesim
