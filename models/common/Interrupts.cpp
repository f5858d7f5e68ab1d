#include "models/common/Interrupts.hpp"

#include <atomic>
#include <csignal>

namespace acmesim {

namespace {

// Lock-free, so that the handler may write it (async-signal-safe).
std::atomic<int> received{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void record_interrupt(int signal)
{
  int none = 0;
  if (received.compare_exchange_strong(none, signal) || none != signal)
    return;
  // The same signal again (Ctrl-C pressed twice): the user will not wait for the next instant, as
  // when a policy is stuck in a loop. The process ends as the signal's default would end it.
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

} // namespace

void catch_interrupts()
{
  for (const int signal : {SIGINT, SIGTERM}) {
    struct sigaction previous {};
    if (sigaction(signal, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN)
      continue;
    struct sigaction action {};
    action.sa_handler = record_interrupt;
    sigemptyset(&action.sa_mask);
    // No SA_RESTART: a wait for a child returns (EINTR), so that a sweep sees the signal at once.
    action.sa_flags = 0;
    sigaction(signal, &action, nullptr);
  }
}

int interrupt_signal() { return received.load(std::memory_order_relaxed); }

std::string interrupt_name(int signal)
{
  if (signal == SIGINT)
    return "SIGINT";
  if (signal == SIGTERM)
    return "SIGTERM";
  return "signal " + std::to_string(signal);
}

void stop_if_interrupted(const std::string& where)
{
  if (const int signal = interrupt_signal())
    throw Interrupted(signal, "interrupted by " + interrupt_name(signal) + " " + where);
}

bool interrupted_exit_code(int code) { return code == 128 + SIGINT || code == 128 + SIGTERM; }

} // namespace acmesim
