#include "sim/run/DecisionWatch.hpp"

#include "sim/policy_api/PolicySpec.hpp"

#include <fmt/format.h>

#include <csignal>
#include <cstring>
#include <stdexcept>
#include <sys/time.h>
#include <unistd.h>

namespace acmesim {

namespace {

// What the handler prints: written before each call, read only by the handler (async-signal-safe:
// write and _exit).
char message[1024];
std::size_t message_length = 0;

extern "C" void decision_too_long(int)
{
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, message, message_length);
  ::_exit(1);
}

void set_timer(double seconds)
{
  itimerval t{};
  const auto whole = static_cast<time_t>(seconds);
  t.it_value.tv_sec = whole;
  t.it_value.tv_usec = static_cast<suseconds_t>((seconds - static_cast<double>(whole)) * 1e6);
  if (seconds > 0 && t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0)
    t.it_value.tv_usec = 1; // a limit below a microsecond is one microsecond, not no limit
  ::setitimer(ITIMER_REAL, &t, nullptr);
}

} // namespace

DecisionWatch::DecisionWatch(double limit_s, std::string policy) : limit_s_(limit_s), policy_(std::move(policy))
{
  if (limit_s_ <= 0)
    return;
  struct sigaction action {};
  action.sa_handler = decision_too_long;
  sigemptyset(&action.sa_mask);
  if (sigaction(SIGALRM, &action, nullptr) != 0)
    throw std::runtime_error(fmt::format("scheduler.{}: cannot set the timer's handler: {}", DECISION_LIMIT_KEY,
                                         std::strerror(errno)));
}

DecisionWatch::Armed DecisionWatch::arm(double now) const
{
  if (limit_s_ <= 0)
    return Armed(false);
  const auto end = fmt::format_to_n(message, sizeof message - 1,
                                    "error: scheduler {} took more than {:g} s of wall time over one decision at "
                                    "simulated time {:.3f} s (scheduler.{}): stuck in a loop, or "
                                    "too slow for the limit; the run stopped and wrote no results\n",
                                    policy_, limit_s_, now, DECISION_LIMIT_KEY);
  message_length = end.size < sizeof message ? end.size : sizeof message - 1;
  message[message_length - 1] = '\n';
  set_timer(limit_s_);
  return Armed(true);
}

DecisionWatch::Armed::~Armed()
{
  if (armed_)
    set_timer(0);
}

} // namespace acmesim
