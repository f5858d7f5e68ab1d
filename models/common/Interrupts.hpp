#pragma once
// A stop asked by SIGINT (Ctrl-C) or SIGTERM. The handlers only record the signal: a run checks it at
// each instant and stops with Interrupted; compare, sweep and plan start no more runs, send SIGTERM
// to those running and report which were interrupted. A command that stops this way exits
// 128 + the signal (130, 143), as a shell reports a process the signal killed. The same signal a
// second time ends the process at once, as if it were not caught.
#include <stdexcept>
#include <string>

namespace acmesim {

// Installs the handlers of SIGINT and SIGTERM, except for a signal the process was started with
// ignored (nohup, a shell's background job): it stays ignored.
void catch_interrupts();
// The first signal received since catch_interrupts, or 0.
int interrupt_signal();
// "SIGINT", "SIGTERM", or the number.
std::string interrupt_name(int signal);

// The command stopped because of `signal`; what() says where it was.
class Interrupted : public std::runtime_error {
public:
  Interrupted(int signal, const std::string& what) : std::runtime_error(what), signal_(signal) {}
  int signal() const { return signal_; }
  int exit_code() const { return 128 + signal_; }

private:
  int signal_;
};

// Throws Interrupted (`where`: what was going on) when a signal has asked the process to stop.
void stop_if_interrupted(const std::string& where);
// Whether an exit code is that of a process a SIGINT or SIGTERM stopped (caught or not).
bool interrupted_exit_code(int code);

} // namespace acmesim
