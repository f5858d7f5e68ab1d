#pragma once
// What a plan found, written for people (the terminal) and programs (plan.json); docs/planning.md
// describes both.
#include "sim/experiment/PlanResult.hpp"
#include "sim/report/JsonText.hpp"

#include <ostream>

namespace acmesim {

Json plan_json(const PlanSpec& spec, const PlanOutcome& outcome);
void print_plan(std::ostream& out, const PlanSpec& spec, const PlanOutcome& outcome);

} // namespace acmesim
