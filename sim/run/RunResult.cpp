#include "sim/run/RunResult.hpp"

namespace acmesim {

RunResult::RunResult() = default;
RunResult::~RunResult() = default;
RunResult::RunResult(RunResult&&) noexcept = default;

} // namespace acmesim
