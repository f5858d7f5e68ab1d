#pragma once
// Names of policy parameters set once per job type: `<prefix>_<type in lower case>`
// (qos_pretrain, reserved_eval, ...).
#include "models/workload/Job.hpp"

#include <cctype>
#include <string>
#include <string_view>

namespace acmesim {

inline std::string type_param(std::string_view prefix, JobType type)
{
  std::string name(prefix);
  name += '_';
  for (const char c : to_string(type))
    name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

} // namespace acmesim
