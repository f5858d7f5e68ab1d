// The seeded failure model: distributions, defaults, determinism, lemons, neighbours, ties.
#include "models/failure/FailureModel.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>

using namespace acmesim;

namespace {

constexpr double HOUR = 3600;

// One pod "t" of `nodes` nodes with 8 GPUs, `per_leaf` nodes per leaf switch.
Topology make_topology(int nodes = 8, int per_leaf = 4)
{
  ClusterSpec spec;
  spec.name = "t";
  PodSpec pod;
  pod.name = "t";
  pod.nodes = nodes;
  pod.gpus_per_node = 8;
  pod.fabric.nodes_per_leaf = per_leaf;
  spec.pods.push_back(pod);
  return Topology(spec);
}

DurationDistribution exponential_h(double mean_h)
{
  DurationDistribution d;
  d.kind = DurationDistribution::Kind::Exponential;
  d.mean_s = mean_h * HOUR;
  return d;
}

DurationDistribution fixed_s(double value)
{
  DurationDistribution d;
  d.kind = DurationDistribution::Kind::Fixed;
  d.value_s = value;
  return d;
}

ComponentFailureSpec& comp(FailureSpec& spec, Component c) { return spec.components[static_cast<std::size_t>(c)]; }

// A model spec with only `enabled` on: exponential TBF, instant repairs, no neighbours.
FailureSpec only(std::initializer_list<Component> enabled, double mean_h = 100)
{
  FailureSpec spec;
  spec.source = FailureSpec::Source::Model;
  for (const Component c : enabled) {
    ComponentFailureSpec& cs = comp(spec, c);
    cs.enabled = true;
    cs.time_between_failures = exponential_h(mean_h);
    cs.reboot_share = 1;
    cs.reboot_time = fixed_s(0);
    cs.replacement_time = fixed_s(0);
  }
  comp(spec, Component::Node).reboot_time = fixed_s(0); // neighbour repairs
  return spec;
}

std::vector<FailureEvent> until(FailureSource& source, double horizon_s)
{
  std::vector<FailureEvent> out;
  while (source.next_time() <= horizon_s)
    out.push_back(source.pop());
  return out;
}

bool same(const FailureEvent& a, const FailureEvent& b)
{
  return a.time_s == b.time_s && a.component == b.component && a.target == b.target && a.category == b.category &&
         a.repair_s == b.repair_s && a.replacement == b.replacement && a.excess == b.excess;
}

bool same(const std::vector<FailureEvent>& a, const std::vector<FailureEvent>& b)
{
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](auto& x, auto& y) { return same(x, y); });
}

double sample_mean(const DurationDistribution& d, int n, std::uint64_t seed)
{
  RandomEngine rng = make_stream(seed, "test");
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += d.sample(rng);
  return sum / n;
}

} // namespace

TEST_CASE("component and category names round-trip")
{
  for (const Component c : enum_values<Component>())
    CHECK(parse_enum<Component>(to_string(c)) == c);
  for (const FailureCategory c : enum_values<FailureCategory>())
    CHECK(parse_enum<FailureCategory>(to_string(c)) == c);
  CHECK(to_string(Component::LeafSwitch) == "leaf_switch");
  CHECK(to_string(FailureCategory::NcclTimeout) == "nccl_timeout");
  CHECK_FALSE(parse_enum<Component>("switch"));
  CHECK_FALSE(parse_enum<FailureCategory>("NVLinkError"));
  CHECK(enum_name_list<Component>() == "node, gpu, nvlink, nic, leaf_switch, storage");
  CHECK(enum_name_list<FailureCategory>() ==
        "nvlink_error, cuda_error, node_failure, ecc_error, network_error, connection_error, storage_error, "
        "nccl_timeout");
}

TEST_CASE("duration distributions: sample means match mean()")
{
  DurationDistribution e = exponential_h(2);
  CHECK(e.mean() == 2 * HOUR);
  CHECK(sample_mean(e, 100000, 1) == Approx(e.mean()).epsilon(0.02));

  DurationDistribution w;
  w.kind = DurationDistribution::Kind::Weibull;
  w.shape = 0.7;
  w.scale_s = 1000;
  CHECK(w.mean() == Approx(1000 * std::tgamma(1 + 1 / 0.7)));
  CHECK(sample_mean(w, 100000, 2) == Approx(w.mean()).epsilon(0.03));

  DurationDistribution l;
  l.kind = DurationDistribution::Kind::LogNormal;
  l.median_s = 3600;
  l.sigma = 0.5;
  CHECK(l.mean() == Approx(3600 * std::exp(0.125)));
  CHECK(sample_mean(l, 100000, 3) == Approx(l.mean()).epsilon(0.02));
  // The median really is the median.
  RandomEngine rng = make_stream(4, "median");
  int below = 0;
  for (int i = 0; i < 20000; ++i)
    below += l.sample(rng) < 3600 ? 1 : 0;
  CHECK(below / 20000.0 == Approx(0.5).margin(0.015));

  const DurationDistribution f = fixed_s(42);
  RandomEngine any = make_stream(5, "fixed");
  CHECK(f.mean() == 42);
  CHECK(f.sample(any) == 42);
}

TEST_CASE("acme defaults: 6.5 node failures per 1000 node-days, HPN leaf rate, sourced detection")
{
  const FailureSpec spec = acme_failure_defaults();
  CHECK(spec.source == FailureSpec::Source::Model);
  double per_node_per_s = 0;
  for (const Component c : {Component::Node, Component::Gpu, Component::NvLink, Component::Nic}) {
    const ComponentFailureSpec& cs = spec.components[static_cast<std::size_t>(c)];
    CHECK(cs.enabled);
    per_node_per_s += (c == Component::Gpu ? 8 : 1) / cs.time_between_failures.mean();
  }
  CHECK(per_node_per_s * 86400 * 1000 == Approx(6.5));
  const auto& leaf = spec.components[static_cast<std::size_t>(Component::LeafSwitch)];
  CHECK(730.5 * HOUR / leaf.time_between_failures.mean() == Approx(0.00051));
  for (const auto& cs : spec.components) {
    double sum = 0;
    for (const auto& [category, weight] : cs.categories)
      sum += weight;
    CHECK(sum == Approx(1));
    CHECK(cs.reboot_time.mean() < cs.replacement_time.mean());
  }
  CHECK(spec.components[1].reboot_share == 0.7);
  CHECK(spec.neighbour_probability == 0.04);
  CHECK(spec.lemon_nodes == 0);
  CHECK(spec.lemon_multiplier == 10);
  CHECK(spec.detection_s[static_cast<std::size_t>(FailureCategory::NcclTimeout)] == 600);
  CHECK(spec.detection_s[static_cast<std::size_t>(FailureCategory::CudaError)] == 60);
}

TEST_CASE("llama3 defaults: a 2,048-node job meets Llama 3 405B's 363 hardware and network interruptions in 54 days")
{
  const FailureSpec spec = llama3_failure_defaults();
  CHECK(spec.preset == FailurePreset::Llama3);
  const auto component = [&](Component c) -> const ComponentFailureSpec& {
    return spec.components[static_cast<std::size_t>(c)];
  };
  // Table 5's counts over the job's 2,048 x 54 x 24 node-hours, worked out by hand.
  const double node_hours = 2048.0 * 54 * 24;
  CHECK(component(Component::Gpu).time_between_failures.mean() / HOUR == Approx(node_hours * 8 / 268));
  CHECK(component(Component::Node).time_between_failures.mean() / HOUR == Approx(node_hours / 46));
  CHECK(component(Component::Nic).time_between_failures.mean() / HOUR == Approx(node_hours / 49));
  double expected = 0;
  for (const Component c : {Component::Node, Component::Gpu, Component::Nic})
    expected += (c == Component::Gpu ? 8 : 1) * 2048 * 54 * 24 * HOUR / component(c).time_between_failures.mean();
  CHECK(expected == Approx(363));
  for (const Component off : {Component::NvLink, Component::LeafSwitch, Component::Storage})
    CHECK_FALSE(component(off).enabled);
  CHECK(component(Component::Gpu).categories ==
        std::vector<std::pair<FailureCategory, double>>{{FailureCategory::CudaError, 177.0 / 268},
                                                       {FailureCategory::EccError, 91.0 / 268}});
  CHECK(component(Component::Nic).categories ==
        std::vector<std::pair<FailureCategory, double>>{{FailureCategory::NetworkError, 42.0 / 49},
                                                       {FailureCategory::NcclTimeout, 7.0 / 49}});

  // Drawn on 2,048 nodes of 8 GPUs for 54 days, without correlated neighbours: 363 expected, a
  // Poisson count whose standard deviation is 19; a rate off by a fifth would fall outside.
  FailureSpec drawn = spec;
  drawn.neighbour_probability = 0;
  FailureModel model(drawn, make_topology(2048, 32), 11);
  const auto events = until(model, 54 * 24 * HOUR);
  CHECK(events.size() > 363 - 4 * 19);
  CHECK(events.size() < 363 + 4 * 19);
  CHECK(failure_defaults(FailurePreset::Acme).preset == FailurePreset::Acme);
}

TEST_CASE("the same seed gives the same failures and another seed different ones")
{
  const Topology topo = make_topology();
  FailureSpec spec = acme_failure_defaults();
  spec.lemon_nodes = 2;
  spec.neighbour_probability = 0.2;
  FailureModel a(spec, topo, 7), b(spec, topo, 7), c(spec, topo, 8);
  const double horizon = 5 * 365 * 86400.0;
  const auto ea = until(a, horizon), eb = until(b, horizon), ec = until(c, horizon);
  REQUIRE(ea.size() > 20);
  CHECK(same(ea, eb));
  CHECK_FALSE(same(ea, ec));
  CHECK(a.lemon_nodes() == b.lemon_nodes());
  CHECK(std::is_sorted(ea.begin(), ea.end(), [](auto& x, auto& y) { return x.time_s < y.time_s; }));
  CHECK(a.next_time() > horizon);
}

TEST_CASE("a component's failures do not depend on which other components are enabled")
{
  const Topology topo = make_topology();
  FailureModel alone(only({Component::Node}), topo, 3);
  FailureModel with_others(only({Component::Node, Component::Gpu, Component::LeafSwitch, Component::Storage}), topo, 3);
  const auto a = until(alone, 2000 * HOUR);
  auto b = until(with_others, 2000 * HOUR);
  CHECK(b.size() > a.size());
  b.erase(std::remove_if(b.begin(), b.end(), [](auto& e) { return e.component != Component::Node; }), b.end());
  REQUIRE(a.size() > 50);
  CHECK(same(a, b));
}

TEST_CASE("exponential time between failures: per-node rate within statistical tolerance")
{
  const Topology topo = make_topology(64, 8);
  FailureModel model(only({Component::Node}, 100), topo, 11);
  const double horizon = 10000 * HOUR;
  const auto events = until(model, horizon);
  // 64 nodes x 100 expected failures each: 6,400 +- 80 (Poisson); 4 sigma.
  CHECK(std::abs(static_cast<double>(events.size()) - 6400) < 320);
  for (const auto& e : events) {
    CHECK(e.component == Component::Node);
    CHECK(e.category == FailureCategory::NodeFailure); // the fallback without a category list
    CHECK_FALSE(e.excess);
  }
}

TEST_CASE("renewal: the next failure comes after the repair")
{
  const Topology topo = make_topology(1, 1);
  FailureSpec spec = only({Component::Node});
  comp(spec, Component::Node).time_between_failures = fixed_s(100);
  comp(spec, Component::Node).reboot_time = fixed_s(50);
  FailureModel model(spec, topo, 1);
  const auto events = until(model, 500);
  REQUIRE(events.size() == 3);
  CHECK(events[0].time_s == 100);
  CHECK(events[1].time_s == 250);
  CHECK(events[2].time_s == 400);
  CHECK(events[0].repair_s == 50);
}

TEST_CASE("lemon nodes fail about multiplier times as often, and their excess failures are flagged")
{
  const Topology topo = make_topology(40, 8);
  FailureSpec spec = only({Component::Node, Component::Gpu}, 1000);
  spec.lemon_nodes = 4;
  spec.lemon_multiplier = 10;
  spec.node_rate_multipliers = {{"t-n0", 5}, {"t-n1", 0.5}};
  FailureModel model(spec, topo, 21);
  std::vector<NodeId> lemons = model.lemon_nodes();
  CHECK(std::is_sorted(lemons.begin(), lemons.end()));
  CHECK(model.rate_multiplier(0) == 5); // named: wins over the seed's choice
  CHECK(model.rate_multiplier(1) == 0.5);
  REQUIRE(std::find(lemons.begin(), lemons.end(), 0u) != lemons.end());
  CHECK(std::find(lemons.begin(), lemons.end(), 1u) == lemons.end());
  int chosen = 0;
  for (NodeId n = 2; n < 40; ++n)
    if (model.rate_multiplier(n) == 10)
      ++chosen;
    else
      CHECK(model.rate_multiplier(n) == 1);
  CHECK(chosen >= 2); // four drawn; the names may override two of them
  CHECK(lemons.size() == static_cast<std::size_t>(chosen) + 1);

  std::map<NodeId, double> count, excess;
  for (const auto& e : until(model, 20000 * HOUR)) {
    count[e.target] += 1;
    excess[e.target] += e.excess ? 1 : 0;
  }
  double normal = 0, lemon = 0;
  int normal_nodes = 0, lemon_nodes = 0;
  for (NodeId n = 2; n < 40; ++n)
    if (model.rate_multiplier(n) == 10) {
      lemon += count[n];
      ++lemon_nodes;
      CHECK(excess[n] / count[n] == Approx(0.9).margin(0.03));
    } else {
      normal += count[n];
      ++normal_nodes;
      CHECK(excess[n] == 0);
    }
  // Each node (9 instances) expects 180 failures; a lemon 1,800.
  CHECK((lemon / lemon_nodes) / (normal / normal_nodes) == Approx(10).epsilon(0.1));
  CHECK(count[0] / (normal / normal_nodes) == Approx(5).epsilon(0.15));
  CHECK(count[1] / (normal / normal_nodes) == Approx(0.5).epsilon(0.3));
  CHECK(excess[1] == 0);
}

TEST_CASE("neighbour failures: the next node on the leaf, right after the cause, with the configured probability")
{
  const Topology topo = make_topology(8, 4);
  FailureSpec spec = only({Component::Node, Component::Nic}, 100);
  spec.neighbour_probability = 0.3;
  FailureModel model(spec, topo, 5);
  const auto events = until(model, 20000 * HOUR);
  std::size_t causes = 0, neighbours = 0;
  for (std::size_t i = 0; i + 1 < events.size(); ++i) {
    const FailureEvent& cause = events[i];
    ++causes;
    const FailureEvent& next = events[i + 1];
    const LeafId leaf = topo.leaf_of(cause.target);
    const auto& under = topo.nodes_of_leaf(leaf);
    const auto pos = std::find(under.begin(), under.end(), cause.target) - under.begin();
    const NodeId expected = under[static_cast<std::size_t>(pos + 1) % under.size()];
    if (next.time_s == cause.time_s && next.component == Component::Node && next.target == expected &&
        next.category == cause.category) {
      ++neighbours;
      CHECK_FALSE(next.excess);
      ++i; // a neighbour causes no neighbour of its own
    }
  }
  causes = events.size() - neighbours;
  REQUIRE(causes > 2000);
  CHECK(static_cast<double>(neighbours) / static_cast<double>(causes) == Approx(0.3).margin(0.03));

  // The base failures are the same whatever the neighbour probability (common random numbers).
  FailureSpec none = spec;
  none.neighbour_probability = 0;
  FailureModel without(none, topo, 5);
  const auto base = until(without, 20000 * HOUR);
  CHECK(base.size() == causes);

  // A leaf with a single node has no neighbour.
  const Topology lonely = make_topology(2, 1);
  FailureSpec nic_only = only({Component::Nic}, 100);
  nic_only.neighbour_probability = 1;
  FailureModel single(nic_only, lonely, 5);
  const auto alone = until(single, 1000 * HOUR);
  CHECK(alone.size() > 5);
  for (const auto& e : alone)
    CHECK(e.component == Component::Nic);
}

TEST_CASE("ties: by component, target and instance, a neighbour right after its cause")
{
  const Topology topo = make_topology(4, 2);
  FailureSpec spec = only({Component::Node, Component::Gpu, Component::LeafSwitch, Component::Storage});
  for (auto& cs : spec.components)
    cs.time_between_failures = fixed_s(100);
  spec.neighbour_probability = 1;
  FailureModel model(spec, topo, 9);
  std::vector<FailureEvent> first;
  while (model.next_time() == 100)
    first.push_back(model.pop());
  // Node: 4 causes each followed by a neighbour; GPU: 32 causes with neighbours; 2 leaves; storage.
  REQUIRE(first.size() == 4 * 2 + 32 * 2 + 2 + 1);
  for (NodeId n = 0; n < 4; ++n) {
    CHECK(first[2 * n].component == Component::Node);
    CHECK(first[2 * n].target == n);
    CHECK(first[2 * n + 1].target == (n ^ 1u)); // the other node of its two-node leaf
  }
  for (std::size_t i = 0; i < 32; ++i) {
    const FailureEvent& cause = first[8 + 2 * i];
    CHECK(cause.component == Component::Gpu);
    CHECK(cause.target == i / 8);
    CHECK(first[9 + 2 * i].component == Component::Node);
  }
  CHECK(first[72].component == Component::LeafSwitch);
  CHECK(first[72].target == 0);
  CHECK(first[73].target == 1);
  CHECK(first[73].category == FailureCategory::NetworkError);
  CHECK(first[74].component == Component::Storage);
  CHECK(first[74].category == FailureCategory::StorageError);
  CHECK(model.next_time() == 200);
}

TEST_CASE("leaf switches fail at their own rate, one process per leaf")
{
  const Topology topo = make_topology(16, 4);
  FailureModel model(only({Component::LeafSwitch}, 10), topo, 13);
  std::map<std::uint32_t, int> per_leaf;
  const auto events = until(model, 10000 * HOUR);
  for (const auto& e : events) {
    CHECK(e.component == Component::LeafSwitch);
    per_leaf[e.target] += 1;
  }
  REQUIRE(per_leaf.size() == 4);
  for (const auto& [leaf, n] : per_leaf)
    CHECK(std::abs(n - 1000) < 130); // Poisson sd ~32, 4 sigma
}

TEST_CASE("expected job failure rate: node-level components by the mean multiplier, plus leaves spanned")
{
  const Topology topo = make_topology(8, 4);
  FailureSpec spec = only({Component::Node, Component::Gpu, Component::LeafSwitch, Component::Storage}, 100);
  const double r = 1 / (100 * HOUR);
  CHECK(expected_job_failure_rate(spec, topo, 0, 2) == Approx(2 * 9 * r + 1 * r));
  CHECK(expected_job_failure_rate(spec, topo, 0, 5) == Approx(5 * 9 * r + 2 * r));
  spec.node_rate_multipliers = {{"t-n0", 9}}; // mean multiplier (9 + 7) / 8 = 2
  CHECK(expected_job_failure_rate(spec, topo, 0, 2) == Approx(2 * 9 * r * 2 + r));
  spec.node_rate_multipliers.clear();
  spec.lemon_nodes = 2;
  spec.lemon_multiplier = 5; // 1 + 2/8 x 4 = 2
  CHECK(expected_job_failure_rate(spec, topo, 0, 2) == Approx(2 * 9 * r * 2 + r));
  CHECK(expected_job_failure_rate(spec, topo, 0, 0) == 0);
  spec.source = FailureSpec::Source::Recorded;
  CHECK(expected_job_failure_rate(spec, topo, 0, 2) == 0);
}
