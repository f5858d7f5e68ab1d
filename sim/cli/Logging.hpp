#pragma once
// Logging to stderr through spdlog; every line carries the simulated time. Kept behind this
// small facade so that spdlog headers stay out of widely included headers.
#include <string>

namespace acmesim {

enum class Verbosity { Quiet, Normal, Verbose };

void setup_logging(Verbosity verbosity);
void log_info(const std::string& message);
void log_warn(const std::string& message);
void log_debug(const std::string& message);

} // namespace acmesim
