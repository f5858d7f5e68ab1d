#include "sim/policies/PolicyCatalogue.hpp"

namespace acmesim {

const std::vector<PolicyInfo>& scheduler_catalogue()
{
  static const std::vector<PolicyInfo> catalogue{
      {"fifo", "strict submission order; the queue head blocks everyone behind it", {}},
      {"easy-backfill",
       "EASY backfilling: the queue head holds a reservation, later jobs start early only if they do not delay it",
       {{"runtime_estimate_factor",
         "runtime estimate = real duration x this factor (1 = perfect estimates; > 1 models user over-estimates)", 1.0,
         1.0, 1e6, false},
        {"backfill_depth", "queued jobs examined for backfilling per scheduling pass", 1000, 1, 1e9, true}}},
      {"eval-baseline",
       "evaluation trials as plain jobs: one per dataset, each loading its model from storage and holding its GPUs "
       "through every phase; other jobs in submission order",
       {}},
      {"eval-decoupled",
       "Acme's trial coordinator for evaluation trials (each technique can be switched off); other jobs in "
       "submission order",
       {{"local_model_load", "1: load the model once per node into host memory; trials read it over PCIe", 1, 0, 1,
         true},
        {"metric_on_cpu", "1: release the GPUs when inference ends; metrics run on CPUs", 1, 0, 1, true},
        {"runtime_packing", "1: pack trials by known runtimes, longest first onto the least-loaded GPU", 1, 0, 1,
         true}}},
  };
  return catalogue;
}

const std::vector<PolicyInfo>& placement_catalogue()
{
  static const std::vector<PolicyInfo> catalogue{
      {"pack", "fewest leaf switches, then fewest nodes; best-fit node for jobs within one node", {}},
      {"spread", "spread whole-node jobs over as many leaf switches as possible; emptiest node for small jobs", {}},
      {"random", "uniformly random among nodes that fit (seeded stream placement.random)", {}},
  };
  return catalogue;
}

// Recovery parameters shared by the automatic policies. Sources: ../shared/reference/models.md
// §1.3-1.5 (assumptions marked there) and docs/failures.md.
std::vector<ParamSpec> automatic_recovery_params()
{
  return {
      {"diagnosis_s", "automatic diagnosis and faulty-node isolation after detection (Acme: two-round NCCL test)", 120,
       0, 1e7, false},
      {"health_check_s", "health check of the allocated nodes before every restart", 60, 0, 1e7, false},
      {"escalate_after", "failures of one node within the window that turn its repair into a part replacement", 2, 1,
       1e6, true},
      {"escalate_window_h", "window of the escalation rule, hours", 72, 0, 1e6, false},
      {"escalation_repair_h", "repair time of an escalated node (part replacement), hours", 48, 0, 1e6, false},
      {"max_restarts", "interruptions after which a job is given up as failed", 50, 0, 1e6, true},
  };
}

const std::vector<PolicyInfo>& recovery_catalogue()
{
  static const std::vector<PolicyInfo> catalogue = [] {
    std::vector<ParamSpec> with_spares = automatic_recovery_params();
    with_spares.push_back({"spare_nodes", "hot spare nodes held out of scheduling in each pod", 4, 0, 1e5, true});
    return std::vector<PolicyInfo>{
        {"manual",
         "a person notices the detected failure and resubmits the job; faulty nodes stay in the pool unless they "
         "crashed",
         {{"person_delay_s", "time for a person to notice and resubmit during working hours", 1800, 0, 1e7, false},
          {"night_start_hour", "hour of day (0-24) from which nobody watches until night_end_hour", 22, 0, 24, false},
          {"night_end_hour", "hour of day (0-24) at which people are back", 8, 0, 24, false},
          {"health_check_s", "health check of the allocated nodes before every restart", 0, 0, 1e7, false},
          {"max_restarts", "interruptions after which a job is given up as failed", 50, 0, 1e6, true}}},
        {"auto",
         "automatic diagnosis; faulty node cordoned; restart from the latest checkpoint at once; a recurring failure "
         "on one node escalated to a part replacement",
         automatic_recovery_params()},
        {"auto+spares",
         "as auto, and an interrupted job swaps its failed nodes for hot spares of its pod when enough are free",
         with_spares},
    };
  }();
  return catalogue;
}

const PolicyInfo* find_policy(const std::vector<PolicyInfo>& catalogue, std::string_view name)
{
  for (const auto& p : catalogue)
    if (p.name == name)
      return &p;
  return nullptr;
}

std::string policy_names(const std::vector<PolicyInfo>& catalogue)
{
  std::string out;
  for (const auto& p : catalogue) {
    if (!out.empty())
      out += ", ";
    out += p.name;
  }
  return out;
}

} // namespace acmesim
