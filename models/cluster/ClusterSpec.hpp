#pragma once
// Typed description of a GPU cluster: one or more pods (Seren, Kalos), each a set of identical
// GPU nodes on its own InfiniBand fat tree (leaf and spine switches, and core planes joining blocks
// in three tiers), plus one storage service that every pod reaches. Presets live in
// configs/clusters/; their sources and the numbers that are assumptions are documented there.
#include "models/common/EnumNames.hpp"
#include "models/workload/EmpiricalSpec.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace acmesim {

// How traffic between leaves picks a spine (docs/network.md, "Routing between leaves").
//  - pooled: it spreads evenly over a leaf's uplinks, as if split finely over all of them (the
//    fluid form of InfiniBand's balanced static routing); no flow ever meets a busier cable than
//    the leaf's mean.
//  - ecmp: each flow (one per NIC and peer, times flows_per_nic) hashes onto one uplink, with a
//    hash seeded by the scenario's seed (Ethernet/RoCE ECMP): two flows may land on one cable
//    while another is idle.
enum class FabricRouting : std::uint8_t { Pooled, Ecmp };
constexpr auto enum_names(FabricRouting) { return names_in_order<FabricRouting>("pooled", "ecmp"); }

// How a node's compute NICs reach the leaf switches.
//  - leaf: all of them to one leaf switch; a leaf takes as many nodes as its downlinks hold NICs.
//  - rail (rail-optimised, as NVIDIA's DGX SuperPOD wires it): NIC k of each node of a rail group
//    to the group's rail switch k, one switch per NIC. Nodes of one group reach each other through
//    their rail switches alone, NIC k to NIC k (NCCL keeps rings on rails), so a group holds a
//    switch's downlinks' worth of nodes, and its compute_nics switches send their uplinks to
//    compute_nics planes of spines. The platform keeps a group as one "leaf" of those switches'
//    ports together (docs/network.md, "Routing between leaves").
enum class FabricWiring : std::uint8_t { Leaf, Rail };
constexpr auto enum_names(FabricWiring) { return names_in_order<FabricWiring>("leaf", "rail"); }

struct FabricSpec {
  int leaf_radix = 40;           // ports per leaf switch (HDR Quantum QM8700: 40 ports)
  int spine_radix = 0;           // ports per spine switch; 0: derived (derived_spine_radix)
  double oversubscription = 1.0; // leaf downlink:uplink port ratio (1.0 = non-blocking)
  int nodes_per_leaf = 0;        // 0: derived from the radix, oversubscription and NICs per node
  double port_bandwidth_Gbps = 200; // one HDR port
  double link_latency_us = 1.0;
  FabricRouting routing = FabricRouting::Pooled;
  FabricWiring wiring = FabricWiring::Leaf;
  // Under ecmp, flows a node opens toward one peer per compute NIC (NCCL's queue pairs per
  // connection, NCCL_IB_QPS_PER_CONNECTION: 1 by default), each hashed on its own.
  int flows_per_nic = 1;
  // Three tiers: the nodes of one block (0: two tiers, one block). A block is a leaf/spine tree of
  // its own (what Llama 3 calls a pod: 3,072 GPUs at full bisection, arXiv 2407.21783 §3.3.1), and
  // spine k of every block is cabled to core plane k, which joins the blocks.
  int nodes_per_block = 0;
  // A block spine's ports toward its leaves per port toward the core (1: non-blocking; Llama 3's
  // "1:7 oversubscription ratio" between pods: 7).
  double core_oversubscription = 1.0;
  // Under rail wiring, the rail switches of a rail group: 0, or the compute NICs of a node (one rail
  // per NIC); any other count is refused, since a NIC per rail is the wiring modelled.
  int rails = 0;
};

// Number formats a GPU computes in, for its peak throughput by precision.
enum class Precision : std::uint8_t { Fp64, Tf32, Bf16, Fp8, Fp4 };
constexpr auto enum_names(Precision) { return names_in_order<Precision>("fp64", "tf32", "bf16", "fp8", "fp4"); }

// What one GPU of a pod's hardware computes and draws. The rest of a scenario takes these unless
// it says otherwise: the step model the peak at checkpoint.precision, the power model the watts
// (sim/config/HardwareDefaults). Defaults: the A100-SXM4-80GB of Acme's nodes; each preset in
// configs/clusters/ gives its own, with sources.
struct GpuSpec {
  // Dense tensor-core peak by Precision, TFLOP/s; 0: the GPU does not compute in that format.
  // A100: FP64 tensor 19.5, TF32 156, BF16 312, no FP8 or FP4 (NVIDIA A100 datasheet; models.md §4).
  std::array<double, enum_values<Precision>().size()> peak_tflops{19.5, 156, 312, 0, 0};
  // Watts of a GPU holding no running work. Acme: "around 30% of GPUs are in an idle state and
  // still need to consume 60 W" (NSDI'24 §3.3).
  double idle_w = 60;
  // Watts of a GPU computing. Assumption fitted to Acme's means: 168.6 W (Seren) and 191.6 W
  // (Kalos) over all samples, of which 30.2% and 28.4% are idle near 60 W, give 216 W and 244 W
  // for the others (docs/energy.md).
  double busy_w = 230;

  double peak(Precision p) const { return peak_tflops[static_cast<std::size_t>(p)]; }
};

struct PodSpec {
  std::string name;
  int nodes = 0;
  int gpus_per_node = 8;
  int cpus_per_node = 128;
  std::string gpu_model = "A100-SXM4-80GB";
  double nvlink_bandwidth_GBps = 300; // per GPU, each way, through NVSwitch
  // Consecutive nodes whose GPUs share one NVLink domain: 1 where NVLink stops at the node (DGX,
  // HGX), 18 for a GB200 NVL72 rack of 4-GPU compute trays. A domain never straddles two leaves.
  // Training traffic inside a domain stays on NVLink (models/cluster/RingLayout).
  int nvlink_domain_nodes = 1;
  int compute_nics = 1;               // IB NICs per node toward the compute fabric
  int storage_nics = 0;               // dedicated storage NICs (0: storage shares the compute NICs)
  double nic_bandwidth_Gbps = 200;    // per NIC
  // Per storage NIC; 0: as nic_bandwidth_Gbps. Acme's Seren loads models at 25 Gb/s per node
  // (NSDI'24 Fig. 16), far below its 200 Gb/s compute NIC.
  double storage_nic_bandwidth_Gbps = 0;
  GpuSpec gpu;
  // What the rest of a node draws in service (CPUs, memory, NICs, fans, power supplies). Acme: GPU
  // servers drew 2.93 kW on average and GPUs "account for approximately 2/3 of the total power"
  // (NSDI'24 Fig. 9): a third of 2.93 kW.
  double node_base_w = 980;
  FabricSpec fabric;
  // Time from a job's submission until the platform lets it start, as a value/CDF table drawn
  // log-linearly (EmpiricalDistribution): pod creation on a Kubernetes platform such as Kalos
  // (every Kalos job waited 8-16 s or more, NSDI'24 Fig. 6d). Empty: none. It applies to the jobs
  // bound to the pod (scheduler.pods: separate), or to every job when all pods have the same.
  EmpiricalSpec start_overhead_s;
  // The failure model (`failures.model`, models/failure/FailureSpec.hpp) calibrated to hardware of
  // this kind, which `failures: {model: hardware}` takes: acme for A100 nodes, llama3 for H100.
  std::string failure_model = "acme";
};

struct StorageSpec {
  double bandwidth_GBps = 588;  // aggregate service bandwidth
  double latency_us = 10;
};

// What a node's processors are. A CPU machine (the machine of an SWF log) is scheduled as a GPU
// cluster is, one processor for one GPU, but its runs report CPU utilisation and no GPU energy,
// for which it has no power model.
enum class ProcessorKind : std::uint8_t { Gpu, Cpu };
constexpr auto enum_names(ProcessorKind) { return names_in_order<ProcessorKind>("gpu", "cpu"); }
// What reports call one processor of the kind: "GPU", or "CPU".
constexpr std::string_view processor_word(ProcessorKind kind) { return kind == ProcessorKind::Cpu ? "CPU" : "GPU"; }

struct ClusterSpec {
  std::string name;
  std::vector<PodSpec> pods;
  StorageSpec storage;
  ProcessorKind processors = ProcessorKind::Gpu;

  int total_nodes() const;
  int total_gpus() const;
};

// NICs of one node on one leaf switch: all of them wired to a leaf, one wired to rails.
int nics_per_leaf_switch(const PodSpec& pod);
// Switches of one "leaf" of the platform: 1, or under rail wiring a rail group's compute_nics.
int switches_per_leaf(const PodSpec& pod);
// Nodes per leaf (per rail group under rail wiring) implied by a fabric and the compute NICs of a
// node: a leaf switch's downlink ports (radix * o / (1 + o)) divided by the NICs a node has on it,
// unless nodes_per_leaf is given explicitly.
int derived_nodes_per_leaf(const PodSpec& pod);
// Leaf switches of a pod.
int derived_leaves(const PodSpec& pod);
// Blocks of a three-tier pod (1 for two tiers) and the leaves of one (all of them for two tiers).
int derived_blocks(const PodSpec& pod);
int leaves_per_block(const PodSpec& pod);
// Ports of a block spine toward the core: its leaf ports over core_oversubscription, rounded up (0
// for two tiers).
int core_ports_per_spine(const PodSpec& pod);
// Ports a spine needs: one per leaf of its block, those toward the core, and one toward storage
// when storage shares the compute NICs.
int spine_ports_needed(const PodSpec& pod);
// Ports per spine switch: as given, or at least DEFAULT_SPINE_RADIX and enough for every leaf
// (and storage), so that a cluster described by its nodes alone builds.
inline constexpr int DEFAULT_SPINE_RADIX = 40; // HDR Quantum QM8700: 40 ports
int derived_spine_radix(const PodSpec& pod);
// Uplink ports of one leaf (radix minus the ports used toward nodes; under rail wiring, those of
// the group's rail switches together). Each uplink goes to a distinct spine, so this is also the
// spine count of a block; under rail wiring the spines of rail k are k * U .. k * U + U - 1, U the
// uplinks of one rail switch. In a three-tier pod each block has that many spines, spine j of the
// pod being spine j mod U of block j / U.
int derived_uplinks_per_leaf(const PodSpec& pod);
// Flows a node's traffic toward one peer travels in: one per compute NIC and flows_per_nic under
// ecmp routing, one when routing is pooled (its spreading is already fluid).
int flows_per_peer(const PodSpec& pod);
// Bandwidth of one storage NIC, Gb/s.
inline double storage_nic_Gbps(const PodSpec& pod)
{
  return pod.storage_nic_bandwidth_Gbps > 0 ? pod.storage_nic_bandwidth_Gbps : pod.nic_bandwidth_Gbps;
}
// GPUs of one full NVLink domain of the pod.
inline int nvlink_domain_gpus(const PodSpec& pod) { return pod.gpus_per_node * pod.nvlink_domain_nodes; }
// Bytes per second of a node's cable to its leaf switch (all its compute NICs) and of its cable to
// the storage network (all its storage NICs; 0 without them). The topology gives the platform
// these bandwidths.
double compute_cable_Bps(const PodSpec& pod);
double storage_cable_Bps(const PodSpec& pod);
// What a flow alone gets of a link's nominal bandwidth under the engine's network model: of a
// node's storage path cable, and of the storage service (TransferService::lone_flow_shares).
struct LoneFlowShares {
  double cable = 1;
  double service = 1;
};
// What `nodes` nodes of `pod` get when they write to (or read from) storage at once with nothing
// else on the way: each its own storage path (its storage NICs, or without them its compute NICs),
// together at most the storage service's bandwidth, each taken at its lone-flow share (nominal
// by default). Checkpoint intervals are planned on it.
double uncontended_storage_Bps(const PodSpec& pod, const StorageSpec& storage, int nodes, LoneFlowShares shares = {});

} // namespace acmesim
