#pragma once
// The `workload:` section of a scenario: a trace (path resolved against the scenario's
// directory and checked to be readable) or a synthetic workload, by hand or from the
// calibrated generator.
#include "models/workload/WorkloadSpec.hpp"
#include "sim/keys/KeyTable.hpp"

#include <string>
#include <vector>

namespace acmesim {

// `workload.load_scale`, declared once: the scenario key reads it, and plans rerun their answer
// at other values of it (`robustness`). A hundredth of the load or less is a typo, not a question.
inline constexpr const char* LOAD_SCALE = "load_scale"; // in `workload:`
inline const std::string LOAD_SCALE_KEY = join_key("workload", LOAD_SCALE);
inline constexpr NumberRange LOAD_SCALE_RANGE{0.01, false, 100};

// The run's estimate model (`workload.estimates`, `workload.estimate_factor`), named once: the keys
// read them, and the error for backfilling's old parameter points at them.
inline constexpr const char* ESTIMATES = "estimates";             // in `workload:`
inline constexpr const char* ESTIMATE_FACTOR = "estimate_factor"; // in `workload:`
inline const std::string ESTIMATES_KEY = join_key("workload", ESTIMATES);
inline const std::string ESTIMATE_FACTOR_KEY = join_key("workload", ESTIMATE_FACTOR);

WorkloadSpec read_workload(ConfigChecker& checker, const ConfigNode& node);
template <> Json section_echo(const WorkloadSpec& spec);
template <> std::vector<KeyDoc> section_key_docs<WorkloadSpec>(const std::string& path);

} // namespace acmesim
