// The `failures:` section: defaults, overrides, recorded lists and the diagnostics of bad input.
#include "models/common/InputError.hpp"
#include "sim/config/FailureSection.hpp"
#include "sim/config/ScenarioLoader.hpp"

#include "tests/support/InputErrors.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace acmesim;
using Catch::Contains;
using Catch::StartsWith;

namespace {

namespace fs = std::filesystem;

// Eight nodes custom-n0..custom-n7 and a small valid workload; the failures section follows.
const std::string BASE = "cluster: {nodes: 8, gpus_per_node: 8}\n"
                         "workload:\n"
                         "  synthetic:\n"
                         "    days: 1\n"
                         "    types:\n"
                         "      Eval:\n"
                         "        arrivals_per_hour: 1\n"
                         "        gpus: {values: [1, 8], cdf: [0.5, 1.0]}\n"
                         "        duration_s: {values: [60, 600], cdf: [0.5, 1.0]}\n";

// A scratch directory for recorded lists, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir()
  {
    path = fs::temp_directory_path() / ("acmesim-failure-config-" + std::to_string(::getpid()));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const
  {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

Scenario load(const std::string& failures, const std::string& base_dir = ".")
{
  return load_scenario_text(BASE + failures, "test.yaml", base_dir);
}

std::vector<Diagnostic> errors_of(const std::string& failures, const std::string& base_dir = ".")
{
  return testing::input_errors([&] { load(failures, base_dir); });
}

Diagnostic single_error(const std::string& failures, const std::string& base_dir = ".")
{
  const auto errors = errors_of(failures, base_dir);
  INFO((errors.empty() ? std::string("no error") : InputError(errors).what()));
  REQUIRE(errors.size() == 1);
  return errors.front();
}

const ComponentFailureSpec& comp(const Scenario& s, Component c)
{
  return s.failures.components[static_cast<std::size_t>(c)];
}

} // namespace

TEST_CASE("failures: absent means none, model acme means the defaults, model none means none")
{
  CHECK(load("").failures.source == FailureSpec::Source::None);
  const Scenario acme = load("failures: {model: acme}\n");
  const FailureSpec defaults = acme_failure_defaults();
  CHECK(acme.failures.source == FailureSpec::Source::Model);
  CHECK(comp(acme, Component::Gpu).time_between_failures.mean() ==
        defaults.components[1].time_between_failures.mean());
  CHECK(acme.failures.detection_s == defaults.detection_s);
  CHECK(acme.failures.neighbour_probability == defaults.neighbour_probability);
  // llama3 starts from its own defaults, which the keys below tune as acme's; the echo names it.
  const Scenario llama3 = load("failures: {model: llama3, components: {gpu: {reboot_share: 0.5}}}\n");
  CHECK(llama3.failures.preset == FailurePreset::Llama3);
  CHECK(comp(llama3, Component::Gpu).time_between_failures.mean() ==
        llama3_failure_defaults().components[1].time_between_failures.mean());
  CHECK(comp(llama3, Component::Gpu).reboot_share == 0.5);
  CHECK_FALSE(comp(llama3, Component::NvLink).enabled);
  CHECK(section_echo(llama3.failures)["model"] == "llama3");
  // none still checks, then switches failures off.
  CHECK(load("failures: {model: none, lemon_nodes: 2}\n").failures.source == FailureSpec::Source::None);
}

TEST_CASE("failures: rsc2 is acme's components at RSC-2's node rate, and hardware takes the pods' model")
{
  // RSC-2 fails 2.34 times per 1000 node-days where RSC-1 (acme) fails 6.50: every node-level
  // component's time between failures is 6.50 / 2.34 times acme's; leaf switches and storage stay.
  const Scenario rsc2 = load("failures: {model: rsc2}\n");
  CHECK(rsc2.failures.preset == FailurePreset::Rsc2);
  const FailureSpec acme = acme_failure_defaults();
  for (const Component c : {Component::Node, Component::Gpu, Component::NvLink, Component::Nic})
    CHECK(comp(rsc2, c).time_between_failures.mean() ==
          Approx(acme.components[static_cast<std::size_t>(c)].time_between_failures.mean() * 6.50 / 2.34));
  for (const Component c : {Component::LeafSwitch, Component::Storage})
    CHECK(comp(rsc2, c).time_between_failures.mean() ==
          acme.components[static_cast<std::size_t>(c)].time_between_failures.mean());
  // Node MTBF from the four node-level components: 1000 / 2.34 days.
  double node_rate_per_h = 0;
  for (const Component c : {Component::Node, Component::NvLink, Component::Nic})
    node_rate_per_h += 1 / comp(rsc2, c).time_between_failures.mean() * 3600;
  node_rate_per_h += 8 / comp(rsc2, Component::Gpu).time_between_failures.mean() * 3600;
  CHECK(1 / node_rate_per_h == Approx(1000.0 / 2.34 * 24));

  // hardware: the model the pods' hardware names, tuned by the keys as any other; the echo names
  // the model taken, so the echoed scenario runs the same.
  const auto on = [](const std::string& cluster, const std::string& failures) {
    return load_scenario_text("cluster: " + cluster + "\nworkload: {synthetic: {days: 1, types: {Eval: "
                              "{arrivals_per_hour: 1, gpus: {values: [1], cdf: [1]}, duration_s: {values: [60], "
                              "cdf: [1]}}}}}\nfailures: " + failures + "\n",
                              "test.yaml", ".");
  };
  const Scenario h100 = on("{preset: dgx-h100}", "{model: hardware, lemon_nodes: 1}");
  CHECK(h100.failures.preset == FailurePreset::Llama3);
  CHECK(h100.failures.lemon_nodes == 1);
  CHECK(section_echo(h100.failures)["model"] == "llama3");
  CHECK(on("{preset: kalos}", "{model: hardware}").failures.preset == FailurePreset::Acme);
  CHECK(on("{preset: kalos, failure_model: rsc2}", "{model: hardware}").failures.preset == FailurePreset::Rsc2);
  // A cluster without a preset is A100 nodes: acme.
  CHECK(load("failures: {model: hardware}\n").failures.preset == FailurePreset::Acme);
  // One failure model a run: pods of hardware naming two are told to name one.
  const auto errors = testing::input_errors([&] {
    on("{pods: [{preset: kalos}, {preset: kalos, name: rsc, failure_model: rsc2}]}", "{model: hardware}");
  });
  REQUIRE(errors.size() == 1);
  CHECK(errors.front().key == "failures.model");
  CHECK(errors.front().message ==
        "pods 'kalos' and 'rsc' name different failure models (acme and rsc2): name one");
  // The pod key takes only a model's name.
  const auto bad = testing::input_errors([&] { on("{preset: kalos, failure_model: hardware}", "{model: acme}"); });
  REQUIRE(bad.size() == 1);
  CHECK(bad.front().key == "cluster.failure_model");
}

TEST_CASE("failures: components, lemons, neighbours and detection override the defaults key by key")
{
  const Scenario s = load("failures:\n"
                          "  model: acme\n"
                          "  components:\n"
                          "    gpu:\n"
                          "      tbf: {dist: weibull, shape: 0.7, scale_h: 5000}\n"
                          "      categories: {cuda_error: 0.25, ecc_error: 0.75}\n"
                          "    node: {reboot_share: 0.5, replacement: {dist: fixed, value_h: 24}}\n"
                          "    storage: {enabled: false}\n"
                          "    nic: {tbf: {dist: lognormal, median_h: 100, sigma: 0.5}}\n"
                          "  lemon_nodes: 3\n"
                          "  lemon_multiplier: 4\n"
                          "  node_rate_multipliers: {custom-n5: 20}\n"
                          "  neighbour_probability: 0.1\n"
                          "  detection_s: {nccl_timeout: 1800, cuda_error: 30}\n");
  const FailureSpec& f = s.failures;
  const auto& gpu = comp(s, Component::Gpu);
  CHECK(gpu.enabled);
  CHECK(gpu.time_between_failures.kind == DurationDistribution::Kind::Weibull);
  CHECK(gpu.time_between_failures.shape == 0.7);
  CHECK(gpu.time_between_failures.scale_s == 5000 * 3600.0);
  REQUIRE(gpu.categories.size() == 2);
  CHECK(gpu.categories[1] == std::pair{FailureCategory::EccError, 0.75});
  CHECK(gpu.reboot_share == 0.7); // untouched key keeps the default
  const auto& node = comp(s, Component::Node);
  CHECK(node.reboot_share == 0.5);
  CHECK(node.replacement_time.kind == DurationDistribution::Kind::Fixed);
  CHECK(node.replacement_time.value_s == 24 * 3600.0);
  CHECK(node.time_between_failures.mean() ==
        acme_failure_defaults().components[0].time_between_failures.mean());
  CHECK_FALSE(comp(s, Component::Storage).enabled);
  CHECK(comp(s, Component::Nic).time_between_failures.median_s == 100 * 3600.0);
  CHECK(f.lemon_nodes == 3);
  CHECK(f.lemon_multiplier == 4);
  REQUIRE(f.node_rate_multipliers.size() == 1);
  CHECK(f.node_rate_multipliers[0] == std::pair<std::string, double>{"custom-n5", 20});
  CHECK(f.neighbour_probability == 0.1);
  CHECK(f.detection_s[static_cast<std::size_t>(FailureCategory::NcclTimeout)] == 1800);
  CHECK(f.detection_s[static_cast<std::size_t>(FailureCategory::CudaError)] == 30);
  CHECK(f.detection_s[static_cast<std::size_t>(FailureCategory::EccError)] == 60);
}

TEST_CASE("failures: a recorded list resolves against the scenario directory and is read at load time")
{
  TempDir dir;
  dir.write("list.csv", "time_s,component,target,category,repair_s\n"
                        "100,node,custom-n3,node_failure,60\n"
                        "50,leaf_switch,custom-leaf0,network_error,60\n");
  const Scenario s = load("failures: {recorded: list.csv, detection_s: {node_failure: 5}}\n", dir.path.string());
  CHECK(s.failures.source == FailureSpec::Source::Recorded);
  CHECK(s.failures.recorded_path == (dir.path / "list.csv").string());
  CHECK(s.failures.detection_s[static_cast<std::size_t>(FailureCategory::NodeFailure)] == 5);
  REQUIRE(s.recorded_failures.size() == 2);
  CHECK(s.recorded_failures[0].component == Component::LeafSwitch);
  CHECK(s.recorded_failures[1].target == 3);

  // A bad list is reported with the loader's other problems, by file and line.
  dir.write("bad.csv", "time_s,component,target,category,repair_s\n100,node,custom-n9,node_failure,60\n");
  const Diagnostic d = single_error("failures: {recorded: bad.csv}\n", dir.path.string());
  CHECK_THAT(d.where, Contains("bad.csv:2"));
  CHECK(d.key == "target");
}

TEST_CASE("failures: model and recorded are exclusive, one is required, names are checked")
{
  TempDir dir;
  dir.write("list.csv", "time_s,component,target,category,repair_s\n");
  const Diagnostic both = single_error("failures: {model: acme, recorded: list.csv}\n", dir.path.string());
  CHECK(both.key == "failures");
  CHECK_THAT(both.message, Contains("not both"));
  CHECK(single_error("failures: {lemon_nodes: 1}\n").key == "failures");
  const Diagnostic model = single_error("failures: {model: meta}\n");
  CHECK(model.key == "failures.model");
  CHECK(model.value == "meta");
  CHECK(model.message == "unknown failure model; valid models: acme, rsc2, llama3, hardware, none");
  const Diagnostic missing = single_error("failures: {recorded: nowhere.csv}\n", dir.path.string());
  CHECK(missing.key == "failures.recorded");
  CHECK_THAT(missing.message, Contains("not found"));
  CHECK_THAT(missing.where, Contains("test.yaml:"));
  const Diagnostic model_key = single_error("failures: {recorded: list.csv, lemon_nodes: 2}\n", dir.path.string());
  CHECK(model_key.key == "failures.lemon_nodes");
}

TEST_CASE("failures: impossible distributions are rejected with their key")
{
  const std::string head = "failures:\n  model: acme\n  components:\n    node:\n";
  const Diagnostic negative = single_error(head + "      tbf: {dist: exponential, mean_h: -5}\n");
  CHECK(negative.key == "failures.components.node.tbf.mean_h");
  CHECK(negative.value == "-5");
  CHECK_THAT(negative.message, Contains("between 0.001 and 1000000000"));
  CHECK_THAT(negative.where, StartsWith("test.yaml:14:"));
  CHECK(single_error(head + "      tbf: {dist: exponential, mean_h: 0}\n").key ==
        "failures.components.node.tbf.mean_h");
  CHECK(single_error(head + "      tbf: {dist: fixed, value_h: 0}\n").key == "failures.components.node.tbf.value_h");
  // A zero repair is allowed: instant reboots.
  CHECK(load(head + "      reboot: {dist: fixed, value_h: 0}\n").failures.source == FailureSpec::Source::Model);
  const Diagnostic param = single_error(head + "      tbf: {dist: weibull, shape: 0.7}\n");
  CHECK(param.key == "failures.components.node.tbf.scale_h");
  const Diagnostic unknown = single_error(head + "      tbf: {dist: weibull, shape: 0.7, scale_h: 10, mean_h: 3}\n");
  CHECK(unknown.key == "failures.components.node.tbf.mean_h");
  CHECK_THAT(unknown.message, Contains("dist, shape, scale_h"));
  CHECK(single_error(head + "      tbf: {dist: gamma, mean_h: 3}\n").key == "failures.components.node.tbf.dist");
  CHECK(single_error(head + "      reboot_share: 1.5\n").key == "failures.components.node.reboot_share");
  CHECK(single_error(head + "      enabled: yes\n").key == "failures.components.node.enabled");
}

TEST_CASE("failures: categories must be known and sum to 1")
{
  const std::string head = "failures:\n  model: acme\n  components:\n    gpu:\n";
  const Diagnostic sum = single_error(head + "      categories: {cuda_error: 0.5, ecc_error: 0.4}\n");
  CHECK(sum.key == "failures.components.gpu.categories");
  CHECK_THAT(sum.message, Contains("sum to 0.9"));
  const Diagnostic unknown = single_error(head + "      categories: {xid_error: 1}\n");
  CHECK(unknown.key == "failures.components.gpu.categories.xid_error");
  CHECK_THAT(unknown.message, Contains("cuda_error"));
  CHECK(single_error(head + "      categories: {cuda_error: -0.5, ecc_error: 1}\n").key ==
        "failures.components.gpu.categories.cuda_error");
  const Diagnostic component = single_error("failures: {model: acme, components: {psu: {enabled: true}}}\n");
  CHECK(component.key == "failures.components.psu");
  CHECK_THAT(component.message, Contains("leaf_switch"));
}

TEST_CASE("failures: lemons, probabilities and detection delays are range-checked")
{
  CHECK(single_error("failures: {model: acme, lemon_nodes: -1}\n").key == "failures.lemon_nodes");
  CHECK(single_error("failures: {model: acme, lemon_nodes: 1.5}\n").key == "failures.lemon_nodes");
  CHECK(single_error("failures: {model: acme, lemon_multiplier: 0}\n").key == "failures.lemon_multiplier");
  CHECK(single_error("failures: {model: acme, neighbour_probability: 2}\n").key ==
        "failures.neighbour_probability");
  CHECK(single_error("failures: {model: acme, detection_s: {cuda_error: -1}}\n").key ==
        "failures.detection_s.cuda_error");
  CHECK(single_error("failures: {model: acme, detection_s: {hang: 1}}\n").key == "failures.detection_s.hang");
  CHECK(single_error("failures: {model: acme, node_rate_multipliers: {custom-n1: -2}}\n").key ==
        "failures.node_rate_multipliers.custom-n1");
}

TEST_CASE("failures: node names and lemon counts are checked against the cluster")
{
  const Diagnostic name = single_error("failures: {model: acme, node_rate_multipliers: {seren-n5: 20}}\n");
  CHECK(name.key == "failures.node_rate_multipliers.seren-n5");
  CHECK(name.where == "test.yaml");
  CHECK_THAT(name.message, Contains("custom-n0"));
  const Diagnostic lemons = single_error("failures: {model: acme, lemon_nodes: 9}\n");
  CHECK(lemons.key == "failures.lemon_nodes");
  CHECK_THAT(lemons.message, Contains("8 nodes"));
  CHECK(load("failures: {model: acme, lemon_nodes: 8}\n").failures.lemon_nodes == 8);
}
