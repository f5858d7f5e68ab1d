#pragma once
// Starting and reaping child processes: every simulation of a comparison or sweep runs as its
// own `acmesim run` process (SimGrid allows one engine per process), and `plot` runs python3.
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <sys/types.h>
#include <vector>

namespace acmesim {

struct ChildCommand {
  std::vector<std::string> argv; // argv[0] is looked up on PATH when it has no '/'
  std::string stdout_path;       // empty: inherit the parent's
  std::string stderr_path;       // empty: inherit the parent's
};

// Thrown when a child cannot be started at all (no such program, no permission...).
struct SpawnError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// How a child ended: its exit code, or 128 + the signal number that killed it (as shells say).
struct ChildExit {
  int code = 0;
  bool signalled = false;
  int signal = 0;
  std::string spawn_error; // set when the child could not be started (code 127)
  bool ok() const { return !signalled && code == 0; }
  std::string describe() const; // "exit code 2", "killed by signal 9 (Killed)"
};

pid_t spawn_child(const ChildCommand& command);
ChildExit wait_child(pid_t pid);
// Starts and waits for one child.
ChildExit run_child(const ChildCommand& command);

// Runs `count` children, at most `parallel` at once, in index order of starting. `make(i)` gives
// the i-th command; `done(i, exit)` is called as each one ends (in the order they end). A child
// that cannot be started (or whose command `make` cannot give) ends at once with code 127 and
// the reason in `spawn_error`; the others still run. After a SIGINT or SIGTERM (Interrupts.hpp)
// the running children get SIGTERM and are waited for, and the others end at once, not started,
// with code 128 + the signal.
void run_children(std::size_t count, std::size_t parallel, const std::function<ChildCommand(std::size_t)>& make,
                  const std::function<void(std::size_t, const ChildExit&)>& done);

// How many children run at once unless the user says: one per core.
std::size_t default_parallelism();

// The path of the running executable (children run the same acmesim binary): for commands
// run elsewhere, such as a Slurm batch script.
std::string current_executable();
// "/proc/self/exe": for children of this process, the very binary running now, even if the file
// has since been rebuilt or replaced.
std::string current_executable_link();

} // namespace acmesim
