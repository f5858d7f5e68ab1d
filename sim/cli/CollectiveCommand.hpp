#pragma once
// `acmesim collective`: the collective model's times, shaped like nccl-tests' output.
#include <string>
#include <vector>

namespace acmesim {

int cmd_collective(const std::vector<std::string>& args);

} // namespace acmesim
