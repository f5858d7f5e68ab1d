// The hardware presets (configs/clusters/): every figure carries its source, and the figures of a
// cluster's GPUs reach the step model and the power model unless the scenario gives its own.
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/config/HardwareDefaults.hpp"
#include "sim/config/ScenarioKeys.hpp"
#include "sim/keys/CheckedReader.hpp"
#include "sim/keys/ConfigTree.hpp"
#include "tests/support/ScenarioTestInputs.hpp"

#include <catch2/catch.hpp>

#include <regex>

using namespace acmesim;
using namespace acmesim::testing;
using Catch::Contains;

namespace {

// The 1-based line a preset's node was read from ("preset kalos:12").
std::size_t line_of(const ConfigNode& node)
{
  return std::stoul(node.where.substr(node.where.rfind(':') + 1));
}

// Every number of a preset, with its line.
void numbers_in(const ConfigNode& node, std::vector<const ConfigNode*>& out)
{
  if (node.is_scalar() && parse_double(node.scalar))
    out.push_back(&node);
  for (const auto& entry : node.entries)
    numbers_in(entry.value, out);
  for (const auto& item : node.items)
    numbers_in(item, out);
}

std::vector<std::string> lines_of(std::string_view text)
{
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

} // namespace

TEST_CASE("hardware presets: every figure of every cluster preset names its source on its line")
{
  // A mark after a comment: (P) publisher, (S)/(S2) second-hand, (D) derived, (A) assumption.
  const std::regex sourced(R"(#.*\((P|S2?|D|A)\b)");
  for (const auto& name : cluster_preset_names()) {
    const std::string_view text = *embedded_cluster_preset(name);
    DiagnosticList diags;
    const auto tree = parse_config(text, {"preset " + name, SourceLabel::Style::Line}, diags);
    REQUIRE(tree);
    std::vector<const ConfigNode*> numbers;
    numbers_in(*tree, numbers);
    CHECK_FALSE(numbers.empty());
    const auto lines = lines_of(text);
    for (const ConfigNode* number : numbers) {
      INFO(number->where << ": " << lines.at(line_of(*number) - 1));
      CHECK(std::regex_search(lines.at(line_of(*number) - 1), sourced));
    }
  }
}

TEST_CASE("hardware presets: a DGX H100 cluster's GPUs set the step model's peak and the power model")
{
  const Scenario s = load("cluster: {preset: dgx-h100, nodes: 64}\n" + WORKLOAD);
  REQUIRE(s.cluster.pods.size() == 1);
  const PodSpec& pod = s.cluster.pods[0];
  CHECK(pod.nodes == 64);
  CHECK(pod.gpus_per_node == 8);
  CHECK(pod.compute_nics == 8);
  CHECK(pod.nic_bandwidth_Gbps == 400);
  CHECK(pod.fabric.wiring == FabricWiring::Rail);
  CHECK(pod.gpu.peak(Precision::Fp8) == 1978.9);
  // bf16 is the default precision; its dense peak is half NVIDIA's "with sparsity" 1,978.9.
  CHECK(s.checkpoint.precision == Precision::Bf16);
  CHECK(s.checkpoint.peak_tflops_per_gpu == 989.4);
  CHECK(s.power.gpu_idle_w == 70);
  CHECK(s.power.gpu_io_w == 70);
  CHECK(s.power.gpu_busy_w == 402);
  CHECK(s.power.node_base_w == 1366);

  const Scenario fp8 = load("cluster: {preset: dgx-b200}\ncheckpoint: {precision: fp8}\n" + WORKLOAD);
  CHECK(fp8.checkpoint.peak_tflops_per_gpu == 4500);
  CHECK(fp8.power.gpu_busy_w == 575);
}

TEST_CASE("hardware presets: GB200 NVL72 is 4-GPU trays, 18 to an NVLink domain, a rack to a rail group")
{
  const Scenario s = load("cluster: {preset: gb200-nvl72}\n" + WORKLOAD);
  REQUIRE(s.cluster.pods.size() == 1);
  const PodSpec& pod = s.cluster.pods[0];
  CHECK(s.cluster.total_gpus() == 576);
  CHECK(pod.gpus_per_node == 4);
  CHECK(pod.nvlink_domain_nodes == 18);
  CHECK(nvlink_domain_gpus(pod) == 72);
  CHECK(derived_nodes_per_leaf(pod) == 18);
  CHECK(s.checkpoint.peak_tflops_per_gpu == 2500);
  CHECK(s.power.gpu_busy_w == 690);
  // A domain that would straddle two rail groups is refused, with the numbers.
  const auto straddling = errors_of("cluster: {preset: gb200-nvl72, nvlink_domain_nodes: 12}\n" + WORKLOAD);
  REQUIRE(straddling.size() == 1);
  CHECK(straddling[0].key == "cluster.pods.0.nvlink_domain_nodes");
  CHECK_THAT(straddling[0].message, Contains("must not straddle two leaves") && Contains("the 18 nodes of a leaf"));
}

TEST_CASE("hardware presets: rails that do not match the NICs, and a pod larger than its fabric holds, are bad input")
{
  const auto rails = errors_of("cluster: {preset: dgx-h100, fabric: {rails: 4}}\n" + WORKLOAD);
  REQUIRE(rails.size() == 1);
  CHECK(rails[0].key == "cluster.pods.0.fabric.rails");
  CHECK_THAT(rails[0].message, Contains("this pod's nodes have 8: rails must be 8"));
  CHECK(load("cluster: {preset: dgx-h100, fabric: {rails: 8}}\n" + WORKLOAD).cluster.pods[0].fabric.rails == 8);

  // 4,096 DGX H100 nodes are 128 rail groups: more than a 64-port spine reaches in two tiers.
  const auto too_large = errors_of("cluster: {preset: dgx-h100, nodes: 4096}\n" + WORKLOAD);
  REQUIRE(too_large.size() == 1);
  CHECK(too_large[0].key == "cluster.pods.0.fabric.spine_radix");
  CHECK_THAT(too_large[0].message, Contains("spine_radix >= 128") &&
                                       Contains("or three tiers: fabric.nodes_per_block of at most 1024 nodes"));
  const Scenario blocks = load("cluster: {preset: dgx-h100, nodes: 4096, fabric: {nodes_per_block: 1024}}\n" + WORKLOAD);
  CHECK(derived_blocks(blocks.cluster.pods[0]) == 4);
}

TEST_CASE("hardware presets: what the scenario gives wins, and the A100 presets keep Acme's figures")
{
  const Scenario given =
      load("cluster: {preset: dgx-h100}\ncheckpoint: {peak_tflops_per_gpu: 700}\npower: {gpu_busy_w: 500}\n" +
           WORKLOAD);
  CHECK(given.checkpoint.peak_tflops_per_gpu == 700);
  CHECK(given.power.gpu_busy_w == 500);
  CHECK(given.power.gpu_idle_w == 70); // not given: the hardware's

  const Scenario acme = load("cluster: {preset: acme}\n" + WORKLOAD);
  CHECK(acme.checkpoint.peak_tflops_per_gpu == 312);
  CHECK(acme.power.gpu_idle_w == 60);
  CHECK(acme.power.gpu_busy_w == 230);
  CHECK(acme.power.node_base_w == 980);
}

TEST_CASE("hardware presets: pods that disagree on a figure left to them, or GPUs without the precision, are bad "
          "input")
{
  const std::string mixed = "cluster:\n  pods:\n    - preset: kalos\n    - preset: dgx-h100\n";
  const auto errors = errors_of(mixed + WORKLOAD);
  // One error per figure the pods disagree on and the scenario leaves to them.
  REQUIRE(errors.size() == hardware_defaults().size());
  CHECK(errors[0].key == "checkpoint.peak_tflops_per_gpu");
  CHECK_THAT(errors[0].message, Contains("pods 'kalos' and 'dgx-h100' differ in gpu.peak_tflops (312 and 989.4)") &&
                                    Contains("give checkpoint.peak_tflops_per_gpu"));
  CHECK(errors[0].where == "test.yaml:2:3");
  // Given, they load.
  const Scenario s = load(mixed +
                          "checkpoint: {peak_tflops_per_gpu: 500}\n"
                          "power: {gpu_idle_w: 80, gpu_io_w: 80, gpu_busy_w: 300, node_base_w: 1200}\n" +
                          WORKLOAD);
  CHECK(s.cluster.pods[1].gpu.busy_w == 402);
  CHECK(s.power.gpu_busy_w == 300);

  const auto fp4 = errors_of("cluster: {preset: dgx-h100}\ncheckpoint: {precision: fp4}\n" + WORKLOAD);
  REQUIRE(fp4.size() == 1);
  CHECK(fp4[0].key == "checkpoint.peak_tflops_per_gpu");
  CHECK_THAT(fp4[0].message, Contains("pod 'dgx-h100' has GPUs without a fp4 peak (gpu.peak_tflops.fp4 is 0)"));

  const auto unknown = errors_of("cluster: {preset: dgx-h800}\n" + WORKLOAD);
  REQUIRE_FALSE(unknown.empty());
  CHECK_THAT(unknown[0].message, Contains("unknown cluster preset") && Contains("dgx-b200, dgx-h100, dgx-h200"));
  const auto precision = errors_of("cluster: {preset: seren, gpu: {peak_tflops: {int4: 1}}}\n" + WORKLOAD);
  REQUIRE(precision.size() == 1);
  CHECK(precision[0].key == "cluster.gpu.peak_tflops.int4");
  CHECK_THAT(precision[0].message, Contains("unknown precision; valid precisions: fp64, tf32, bf16, fp8, fp4"));
}

TEST_CASE("hardware presets: the keys filled from the hardware are keys of their sections")
{
  for (const auto& d : hardware_defaults()) {
    INFO(d.section << "." << d.key);
    bool found = false;
    for (const auto& doc : scenario_keys().docs("", Scenario{}))
      found = found || doc.path == d.section + "." + d.key;
    CHECK(found);
    CHECK_THAT(hardware_default_doc(d.section, d.key), Contains("the cluster's"));
  }
}
