#include "sim/config/ClusterSection.hpp"

#include "models/failure/FailureSpec.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/config/PhysicalRanges.hpp"
#include "sim/config/TableKey.hpp"
#include "sim/keys/NamedKeys.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace acmesim {

namespace {

// Sanity bounds, far above any real cluster (Acme has 588 nodes and 40-port switches), that
// keep GPU counts within int and stop a typo from building a graph of a billion switches. A pod
// of a million nodes holds a million GPUs even at one a node; what a platform may really take is
// its measured memory (check_platform_size).
constexpr double MAX_NODES = 1000000;
constexpr double MAX_RADIX = 4096;
// Llama 3 spread each GPU pair over 16 flows (E-ECMP); every flow is a platform endpoint.
constexpr double MAX_FLOWS_PER_NIC = 16;

const KeyTable<FabricSpec>& fabric_keys()
{
  using F = FabricSpec;
  static const KeyTable<F> keys({
      // At least one port down and one up.
      number_key("leaf_radix", &F::leaf_radix, integer_between(2, MAX_RADIX), "ports", "ports per leaf switch"),
      number_key("spine_radix", &F::spine_radix, integer_between(0, MAX_RADIX), "ports",
                 "ports per spine switch (a spine links to every leaf of the pod); 0: derived, at least 40 and "
                 "a port per leaf and for storage"),
      number_key("oversubscription", &F::oversubscription, physical::OVERSUBSCRIPTION, NO_UNIT,
                 "leaf downlink:uplink port ratio (1: non-blocking)"),
      number_key("nodes_per_leaf", &F::nodes_per_leaf, integer_between(0, MAX_RADIX), "nodes",
                 "nodes under one leaf switch; 0: derived from leaf_radix, oversubscription and compute_nics "
                 "(summary.json shows the derived count)"),
      number_key("port_bandwidth_Gbps", &F::port_bandwidth_Gbps, physical::BANDWIDTH, "Gb/s", "bandwidth of one switch port"),
      number_key("link_latency_us", &F::link_latency_us, physical::LATENCY_US, "us", "latency of one fabric link"),
      value_key("routing", &F::routing,
                "how traffic between leaves picks a spine: pooled (spread evenly over a leaf's uplinks, as "
                "InfiniBand's balanced static routing) or ecmp (each flow hashed onto one uplink, seeded by the "
                "scenario's seed, so flows collide)"),
      value_key("wiring", &F::wiring,
                "how a node's compute NICs reach the leaves: leaf (all to one leaf switch) or rail (rail-optimised: "
                "NIC k of each node of a rail group to the group's switch k, so a group holds a switch's downlinks' "
                "worth of nodes that reach each other without the spines)"),
      number_key("flows_per_nic", &F::flows_per_nic, integer_between(1, MAX_FLOWS_PER_NIC), "flows",
                 "under ecmp, flows a node opens toward one peer per compute NIC, each hashed on its own "
                 "(NCCL's queue pairs per connection)"),
      number_key("nodes_per_block", &F::nodes_per_block, integer_between(0, MAX_NODES), "nodes",
                 "three tiers: nodes of one block, a leaf/spine tree of whole leaves (Llama 3's 'pod'), spine k of "
                 "every block cabled to core plane k; 0: two tiers"),
      number_key("core_oversubscription", &F::core_oversubscription, physical::OVERSUBSCRIPTION, NO_UNIT,
                 "a block spine's leaf ports per core port (1: non-blocking; Llama 3: 7)"),
      number_key("rails", &F::rails, integer_between(0, 64), "rails",
                 "under wiring: rail, the rail switches of a rail group: one per compute NIC, the wiring modelled; "
                 "0: compute_nics"),
  });
  return keys;
}

const KeyTable<GpuSpec>& gpu_keys()
{
  using G = GpuSpec;
  static const KeyTable<G> keys({
      numbers_by_name_key<Precision>("peak_tflops", &G::peak_tflops, NamedNumbers::Update, {"precision", "precisions"},
                                     {physical::TFLOPS_OR_NONE, "TFLOP/s",
                                      "dense peak in a precision (0: the GPU does not compute in it)"},
                                     "dense tensor peak of one GPU by precision; the step model takes the one at "
                                     "checkpoint.precision"),
      number_key("idle_w", &G::idle_w, physical::GPU_WATTS, "W",
                 "a GPU holding no running work; power.gpu_idle_w and power.gpu_io_w unless the scenario gives them"),
      number_key("busy_w", &G::busy_w, physical::GPU_WATTS, "W",
                 "a GPU computing; power.gpu_busy_w unless the scenario gives it"),
  });
  return keys;
}

const KeyTable<StorageSpec>& storage_keys()
{
  static const KeyTable<StorageSpec> keys({
      number_key("bandwidth_GBps", &StorageSpec::bandwidth_GBps, physical::BANDWIDTH, "GB/s",
                 "aggregate bandwidth of the storage service"),
      number_key("latency_us", &StorageSpec::latency_us, physical::LATENCY_US, "us", "latency of a storage access"),
  });
  return keys;
}

const KeyTable<EmpiricalSpec>& start_overhead_keys()
{
  static const KeyTable<EmpiricalSpec> keys =
      table_keys(physical::START_OVERHEAD_S, "s", "overheads, interpolated log-linearly between them");
  return keys;
}

ConfigKey<PodSpec> pod_preset_key()
{
  return ConfigKey<PodSpec>(choice_doc("preset", cluster_preset_names(),
                                       "a one-pod cluster preset whose pod fields this pod takes (not its storage)"),
                            {}, {}) // expanded by ClusterResolver before the pod is read
      .default_is("none");
}

// `cluster.pods.<i>`: a preset, a name and the pod's fields.
const KeyTable<PodSpec>& pod_entry_keys()
{
  static const KeyTable<PodSpec> keys({
      {pod_preset_key(),
       value_key("name", &PodSpec::name, "the pod's name, distinct within the cluster")
           .default_is("the preset's name, or pod<i>")},
      pod_keys().keys(),
  });
  return keys;
}

// The pod as the run builds it: the values the file may leave at 0 to be derived, derived.
PodSpec as_built(const PodSpec& pod)
{
  PodSpec built = pod;
  built.storage_nic_bandwidth_Gbps = storage_nic_Gbps(pod);
  built.fabric.nodes_per_leaf = derived_nodes_per_leaf(pod);
  built.fabric.spine_radix = derived_spine_radix(pod);
  return built;
}

Json pods_to_json(const ClusterSpec& cluster)
{
  Json pods = Json::array();
  for (const auto& pod : cluster.pods)
    pods.push_back(pod_entry_keys().echo(as_built(pod)));
  return pods;
}

const KeyTable<ClusterSpec>& cluster_keys()
{
  using C = ClusterSpec;
  static const KeyTable<C> keys({
      ConfigKey<C>(choice_doc("preset", cluster_preset_names(),
                              "a cluster preset (configs/clusters/, `acmesim list`) under the keys given here"),
                   {}, {}) // expanded by ClusterResolver before the cluster is read
          .default_is("none: the cluster is given here"),
      value_key("name", &C::name, "the cluster's name").default_is("the preset's name, or custom"),
      ConfigKey<C>(other_doc("pods", "list of maps", "at least one pod",
                             "the pods, each on its own fabric; without it, the pod fields given at cluster level "
                             "describe one pod named after the cluster"),
                   {}, pods_to_json, // read by read_cluster: a list, not a map
                   [](const std::string& path, const C&) {
                     return pod_entry_keys().docs(join_key(path, "<i>"), PodSpec{});
                   })
          .default_is("one pod"),
      map_key("storage", &C::storage, storage_keys(), "the storage service, shared by every pod"),
      value_key(PROCESSORS, &C::processors,
                "what the nodes' processors are: gpu, or cpu for a CPU machine (an SWF log's), whose processors "
                "are scheduled as GPUs are but whose runs report CPU utilisation and no GPU energy")
          .default_is("cpu for the machine of an SWF header, gpu otherwise"),
  });
  return keys;
}

void read_pods(ConfigChecker& checker, const ConfigNode& cluster, bool complete, ClusterSpec& spec)
{
  for (const auto& entry : cluster.entries)
    if (pod_keys().has(entry.key))
      checker.error(entry.key_where, "cluster." + entry.key, entry.value.text(),
                    "cannot set pod field '" + entry.key + "' on a multi-pod cluster; set cluster.pods.<i>." +
                        entry.key);
  const ConfigNode& pods = *cluster.find("pods");
  if (!checker.expect_list(pods, "cluster.pods"))
    return;
  if (pods.items.empty())
    checker.error(pods, "cluster.pods", "expected at least one pod");
  for (std::size_t i = 0; i < pods.items.size(); ++i) {
    MapReader p(checker, &pods.items[i], "cluster.pods." + std::to_string(i), pod_entry_keys().names());
    if (!p.ok())
      continue;
    PodSpec pod;
    pod.name = "pod" + std::to_string(i);
    pod_entry_keys().read(p, pod, complete);
    // Results and messages refer to pods by name, so a name must pick out one pod.
    const auto same_name = [&](const PodSpec& other) { return other.name == pod.name; };
    if (std::any_of(spec.pods.begin(), spec.pods.end(), same_name))
      checker.error(p.get("name") ? p.get("name")->where : p.node()->where, p.key_of("name"), pod.name,
                    "two pods are named '" + pod.name + "'; pod names must be distinct");
    spec.pods.push_back(std::move(pod));
  }
}

} // namespace

const KeyTable<PodSpec>& pod_keys()
{
  using P = PodSpec;
  static const KeyTable<P> keys({
      number_key("nodes", &P::nodes, integer_between(1, MAX_NODES), "nodes", "GPU nodes").required(),
      number_key("gpus_per_node", &P::gpus_per_node, integer_between(1, 64), "GPUs", "GPUs per node"),
      number_key("cpus_per_node", &P::cpus_per_node, integer_between(1, 65536), "CPUs", "CPU cores per node"),
      value_key("gpu_model", &P::gpu_model, "the GPU model's name (reported, not modelled)"),
      number_key("nvlink_bandwidth_GBps", &P::nvlink_bandwidth_GBps, physical::BANDWIDTH, "GB/s",
                 "NVLink bandwidth per GPU, each way, through NVSwitch"),
      number_key("nvlink_domain_nodes", &P::nvlink_domain_nodes, integer_between(1, 1024), "nodes",
                 "consecutive nodes whose GPUs share one NVLink domain (1: NVLink stops at the node; "
                 "GB200 NVL72: 18 trays); training traffic inside a domain stays off the NICs"),
      number_key("compute_nics", &P::compute_nics, integer_between(1, 64), "NICs",
                 "InfiniBand NICs per node toward the compute fabric"),
      number_key("storage_nics", &P::storage_nics, integer_between(0, 64), "NICs",
                 "dedicated storage NICs per node (0: storage traffic shares the compute NICs)"),
      number_key("nic_bandwidth_Gbps", &P::nic_bandwidth_Gbps, physical::BANDWIDTH, "Gb/s", "bandwidth of one NIC"),
      number_key("storage_nic_bandwidth_Gbps", &P::storage_nic_bandwidth_Gbps, physical::BANDWIDTH_OR_NONE, "Gb/s",
                 "bandwidth of one storage NIC; 0: as nic_bandwidth_Gbps (summary.json shows the bandwidth used)"),
      map_key("gpu", &P::gpu, gpu_keys(), "what one GPU computes and draws (the hardware's figures)"),
      number_key("node_base_w", &P::node_base_w, physical::NODE_WATTS, "W",
                 "what the rest of a node draws in service; power.node_base_w unless the scenario gives it"),
      map_key("fabric", &P::fabric, fabric_keys(), "the pod's InfiniBand fat tree: two tiers, or three with blocks"),
      choice_key("failure_model", &P::failure_model, enum_name_vector<FailurePreset>(),
                 "the failure model calibrated to this hardware, which failures.model: hardware takes"),
      table_key("start_overhead_s", &P::start_overhead_s, start_overhead_keys(), EmpiricalDistribution::Kind::LogLinear,
                "time from a job's submission until the platform lets it start (pod creation): drawn per job; "
                "for jobs bound to the pod (scheduler.pods: separate), or every job when all pods have the same",
                true)
          .default_is("none"),
  });
  return keys;
}

namespace {

// What the platform holds grows with its nodes and their flow endpoints (FabricZone keeps no
// route per node pair). Measured (Release, 2026-11-28; benchmarks/platform-build.sh and Kalos-like
// pods of 12,500 nodes), less the 40 MB of a run on a small cluster: 7.6-8.5 KB a node with pooled
// routing (125,000 DGX H100 nodes: 1.07 GB); under ecmp 12.4 KB more with 4 endpoints a node,
// 26 KB with 8, 27.5 KB with 16 and 89.5 KB with 64. The estimate lies above each of them.
constexpr double PLATFORM_BYTES_PER_NODE = 10e3;
constexpr double ECMP_BYTES_PER_NODE = 12e3;
constexpr double ECMP_BYTES_PER_ENDPOINT = 2e3;
// Two thirds of the 24 GiB of the machine the project is measured on: room for the run itself.
constexpr double MAX_PLATFORM_BYTES = 16e9;

double platform_bytes(const PodSpec& pod)
{
  double per_node = PLATFORM_BYTES_PER_NODE;
  if (pod.fabric.routing == FabricRouting::Ecmp)
    per_node += ECMP_BYTES_PER_NODE + ECMP_BYTES_PER_ENDPOINT * flows_per_peer(pod);
  return per_node * pod.nodes;
}

void check_platform_size(ConfigChecker& checker, const ConfigNode& cluster, const ClusterSpec& spec)
{
  double bytes = 0;
  for (const auto& pod : spec.pods)
    bytes += platform_bytes(pod);
  if (bytes > MAX_PLATFORM_BYTES)
    checker.error(cluster, "cluster",
                  fmt::format("its platform would need about {:.0f} GB (measured: at most 10 KB a node, and under ecmp "
                              "12 KB more and 2 KB per flow endpoint); at most {:.0f} GB: use fewer nodes, pooled "
                              "routing or fewer flows_per_nic",
                              bytes / 1e9, MAX_PLATFORM_BYTES / 1e9));
}

} // namespace

ClusterSpec read_cluster(ConfigChecker& checker, const ConfigNode& cluster, bool complete)
{
  static const std::vector<std::string> valid = [] {
    std::vector<std::string> names = cluster_keys().names();
    for (const auto& name : pod_keys().names())
      names.push_back(name);
    return names;
  }();
  ClusterSpec spec;
  spec.name = "custom";
  MapReader m(checker, &cluster, "cluster", valid);
  if (!m.ok())
    return spec;
  cluster_keys().read(m, spec);
  if (m.get("pods")) {
    read_pods(checker, cluster, complete, spec);
  } else {
    PodSpec pod; // the flat form: one pod named after the cluster
    pod.name = spec.name;
    pod_keys().read(m, pod, complete);
    spec.pods.push_back(std::move(pod));
  }
  check_platform_size(checker, cluster, spec);
  return spec;
}

template <> Json section_echo(const ClusterSpec& cluster) { return cluster_keys().echo(cluster); }

template <> std::vector<KeyDoc> section_key_docs<ClusterSpec>(const std::string& path)
{
  std::vector<KeyDoc> docs = cluster_keys().docs(path, ClusterSpec{});
  for (const auto& doc : pod_keys().docs(path, PodSpec{}))
    docs.push_back(doc);
  return docs;
}

} // namespace acmesim
