#include "sim/cli/Logging.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace acmesim {

namespace {

// %* in the pattern: the simulated clock, or "-" before the engine exists.
class SimClockFlag final : public spdlog::custom_flag_formatter {
public:
  void format(const spdlog::details::log_msg&, const std::tm&, spdlog::memory_buf_t& dest) override
  {
    const std::string text = simgrid::s4u::Engine::is_initialized()
                                 ? fmt::format("{:.3f}s", simgrid::s4u::Engine::get_clock())
                                 : std::string("-");
    dest.append(text.data(), text.data() + text.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<SimClockFlag>(); }
};

std::shared_ptr<spdlog::logger>& logger()
{
  static std::shared_ptr<spdlog::logger> instance = [] {
    auto l = std::make_shared<spdlog::logger>("acmesim", std::make_shared<spdlog::sinks::stderr_sink_st>());
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<SimClockFlag>('*').set_pattern("[%*] [%n] %l: %v");
    l->set_formatter(std::move(formatter));
    return l;
  }();
  return instance;
}

} // namespace

void setup_logging(Verbosity verbosity)
{
  switch (verbosity) {
    case Verbosity::Quiet:
      logger()->set_level(spdlog::level::err);
      break;
    case Verbosity::Normal:
      logger()->set_level(spdlog::level::info);
      break;
    case Verbosity::Verbose:
      logger()->set_level(spdlog::level::debug);
      break;
  }
}

void log_info(const std::string& message) { logger()->info(message); }
void log_warn(const std::string& message) { logger()->warn(message); }
void log_debug(const std::string& message) { logger()->debug(message); }

} // namespace acmesim
