#include "sim/config/NetworkSection.hpp"

#include "models/common/InputError.hpp"
#include "models/common/TextFile.hpp"
#include "models/network/CollectiveFit.hpp"
#include "sim/config/PhysicalRanges.hpp"
#include "sim/keys/NamedKeys.hpp"

#include <filesystem>
#include <fstream>

namespace acmesim {

namespace {

// The section's name, and its key of a measured-collectives file (reported again by the fit).
constexpr const char* NETWORK_SECTION = "network";
constexpr const char* COLLECTIVES_KEY = "collectives";

// Bounds past which a value is a typing or unit error rather than a what-if.
constexpr int MAX_DEGREE = 4096;
constexpr int MAX_NICS = 64;

const KeyTable<CommSpec>& comm_keys()
{
  static const KeyTable<CommSpec> keys({
      number_key("tensor_parallel", &CommSpec::tensor_parallel, integer_between(1, MAX_DEGREE), "GPUs",
                 "tensor-parallel degree, inside a node (the largest that divides the job's GPUs on a node)"),
      number_key("pipeline_parallel", &CommSpec::pipeline_parallel, integer_between(1, MAX_DEGREE), "stages",
                 "pipeline-parallel degree across nodes (at most the job's nodes)"),
      number_key("dp_overlap", &CommSpec::dp_overlap, number_between(0, 1), NO_UNIT,
                 "share of a step's compute that hides the data-parallel gradient all-reduce"),
      number_key("hidden_per_layer", &CommSpec::hidden_per_layer, physical::SIZE_RATIO, NO_UNIT,
                 "hidden size over layer count of the model, which sets both from its parameters"),
      number_key("gradient_bytes_per_param", &CommSpec::gradient_bytes_per_param, physical::BYTES_PER_VALUE,
                 "bytes", "bytes of one gradient value in the all-reduce"),
      number_key("activation_bytes", &CommSpec::activation_bytes, physical::BYTES_PER_VALUE, "bytes",
                 "bytes of one activation value in the tensor-parallel all-reduces"),
      value_key("data_parallel", &CommSpec::data_parallel,
                "how data-parallel replicas share their gradients: allreduce (a ring all-reduce) or zero (ZeRO-3: "
                "reduce-scatter of gradients and all-gathers of parameters, 1.5 times the bytes)"),
      number_key("expert_parallel", &CommSpec::expert_parallel, integer_between(1, MAX_DEGREE), "replicas",
                 "expert-parallel degree over the data-parallel replicas (mixture of experts: all-to-alls on the "
                 "critical path); 1: a dense model"),
      number_key("experts_per_token", &CommSpec::experts_per_token, integer_between(1, MAX_DEGREE), "experts",
                 "experts each token is sent to (top-k routing) when expert_parallel is above 1"),
      number_key("micro_batch_tokens", &CommSpec::micro_batch_tokens, physical::TOKENS, "tokens",
                 "tokens of one replica's micro-batch: each tensor-parallel all-reduce, pipeline send and expert "
                 "all-to-all carries one, paying its collective's latency"),
      number_key("dp_bucket_MiB", &CommSpec::dp_bucket_MiB, physical::BUFFER_MIB, "MiB",
                 "a GPU's gradients reduced per data-parallel call (a bucket), each paying its ring's latency"),
      number_key("max_compute_mfu", &CommSpec::max_compute_mfu, physical::UTILISATION, NO_UNIT,
                 "the most of the GPUs' peak a step's compute alone reaches, at least checkpoint.mfu (which is end "
                 "to end, communication stalls included)"),
  });
  return keys;
}

const KeyTable<ReferenceFabric>& reference_keys()
{
  static const KeyTable<ReferenceFabric> keys({
      number_key("compute_nics", &ReferenceFabric::compute_nics, integer_between(1, MAX_NICS), "NICs",
                 "compute NICs per node the jobs were timed with")
          .default_is("the pod's own, before any --set"),
      number_key("nic_bandwidth_Gbps", &ReferenceFabric::nic_bandwidth_Gbps, physical::BANDWIDTH, "Gb/s",
                 "bandwidth of one of those NICs")
          .default_is("the pod's own, before any --set"),
      number_key("nvlink_bandwidth_GBps", &ReferenceFabric::nvlink_bandwidth_GBps, physical::BANDWIDTH,
                 "GB/s", "NVLink bandwidth per GPU they were timed with")
          .default_is("the pod's own, before any --set"),
  });
  return keys;
}

// `reference.<pod>`: the pods are checked against the cluster with the other sections.
bool read_reference(MapReader& m, const std::string& name, NetworkSpec& spec)
{
  MapReader pods(m.checker(), m.get(name), m.key_of(name));
  if (!pods.ok())
    return false;
  bool ok = true;
  for (const auto& entry : pods.node()->entries)
    ok = reference_keys().read_map(m.checker(), &entry.value, pods.key_of(entry.key), spec.reference[entry.key]) && ok;
  return ok;
}

Json reference_json(const NetworkSpec& spec)
{
  Json pods = Json::object();
  for (const auto& [pod, fabric] : spec.reference) {
    const Json written = reference_keys().echo(fabric);
    Json keys = Json::object();
    for (const auto& [key, value] : written.items())
      if (value != 0) // 0 until the loader pins it (NetworkReference.hpp)
        keys[key] = value;
    pods[pod] = keys;
  }
  return pods;
}

// `collectives: FILE`, once the key is read: the collective model fitted to the file's `fit` rows
// (models/network/CollectiveFit), as `acmesim collective --measured FILE` fits it. The file's own
// problems are reported with its lines and columns; one the key could not open was reported there.
void fit_collectives_file(ConfigChecker& checker, NetworkSpec& spec)
{
  if (spec.collectives_file.empty() || !std::filesystem::is_regular_file(spec.collectives_file) ||
      !std::ifstream(spec.collectives_file).good())
    return;
  const auto text = read_text_file(spec.collectives_file);
  if (!text) {
    checker.error(spec.collectives_file, join_key(NETWORK_SECTION, COLLECTIVES_KEY), spec.collectives_as_written,
                  "cannot read this measured-collectives file (a CSV file of at most 2 MiB)");
    return;
  }
  try {
    spec.collectives =
        fit_collectives(read_measured_collectives(spec.collectives_file, *text), a100_hdr_calibration()).calibration;
  } catch (const InputError& error) {
    for (const Diagnostic& d : error.diagnostics())
      checker.error(d.where, d.key, d.value, d.message);
  }
}

const KeyTable<NetworkSpec>& network_keys()
{
  using N = NetworkSpec;
  static const KeyTable<N> keys({
      {value_key(NETWORK_MODEL, &N::model,
                 "flows: training traffic shares the platform and sets each job's speed; off: jobs run for "
                 "their recorded duration wherever they are placed")},
      {value_key("phases", &N::phases,
                 "how the communication bursts of jobs sharing a link fall against each other: random (independent "
                 "phases), aligned (in lock-step, the worst case) or interleaved (time-shifted as CASSINI does)")},
      {number_key("nic_sample_s", &N::nic_sample_s, physical::SECONDS, "s",
                  "the window summary.json's NIC figures are read over, as a monitor samples NICs (Acme: 15 s); "
                  "a ring sends a burst each step, so a window between bursts reads nothing")},
      comm_keys().of_member(&N::comm),
      // A type's profile starts from the section's own, so that only what differs is written.
      {maps_by_name_key<JobType>(
           "job_types", comm_keys(),
           NamedMaps<N, CommSpec, JobType>{
               [](N& spec, JobType type) -> CommSpec& {
                 return spec.job_types.try_emplace(type, spec.comm).first->second;
               },
               [](const N& spec, JobType type) -> const CommSpec* {
                 const auto it = spec.job_types.find(type);
                 return it == spec.job_types.end() ? nullptr : &it->second;
               }},
           {"job type", "job types"}, "",
           "profiles of job types that differ: the keys above, each defaulting to the section's value"),
       ConfigKey<N>(other_doc("reference", "map", "pod names of the cluster",
                              "the fabric each pod's jobs were timed on (replayed durations); keys not "
                              "written: the pod as the scenario's text describes it, before any --set"),
                    read_reference, reference_json,
                    [](const std::string& path, const N&) {
                      return reference_keys().docs(join_key(path, "<pod>"), ReferenceFabric{});
                    })},
       {path_key(COLLECTIVES_KEY, &N::collectives_as_written, &N::collectives_file, "measured-collectives file",
                 "measured collectives (nccl-tests output, a CSV file: docs/network.md) the collective model is "
                 "fitted to; training steps are timed with it")
            .default_is("the published A100 + HDR points (configs/collectives/a100-hdr-published.csv)")},
  });
  return keys;
}

} // namespace

NetworkSpec read_network(ConfigChecker& checker, const ConfigNode& node)
{
  NetworkSpec spec;
  network_keys().read_map(checker, &node, NETWORK_SECTION, spec);
  fit_collectives_file(checker, spec);
  return spec;
}

template <> Json section_echo(const NetworkSpec& spec)
{
  // Off: the model alone, so that the echo reads back as a scenario with the network off (the
  // default is on) and says what ran; the other keys have no effect then.
  return spec.on() ? network_keys().echo(spec) : Json{{NETWORK_MODEL, to_string(spec.model)}};
}

template <> std::vector<KeyDoc> section_key_docs<NetworkSpec>(const std::string& path)
{
  return network_keys().docs(path, NetworkSpec{});
}

} // namespace acmesim
