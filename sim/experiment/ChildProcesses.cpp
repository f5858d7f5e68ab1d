#include "sim/experiment/ChildProcesses.hpp"

#include "models/common/Interrupts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace acmesim {

namespace {

// posix_spawn's attribute and file-action objects, released on every path out.
class SpawnActions {
public:
  SpawnActions() { posix_spawn_file_actions_init(&actions_); }
  ~SpawnActions() { posix_spawn_file_actions_destroy(&actions_); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;

  void redirect(int fd, const std::string& path)
  {
    if (!path.empty())
      posix_spawn_file_actions_addopen(&actions_, fd, path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  const posix_spawn_file_actions_t* get() const { return &actions_; }

private:
  posix_spawn_file_actions_t actions_{};
};

} // namespace

std::string ChildExit::describe() const
{
  if (!spawn_error.empty())
    return spawn_error;
  if (signalled)
    return fmt::format("killed by signal {} ({})", signal, strsignal(signal));
  return fmt::format("exit code {}", code);
}

pid_t spawn_child(const ChildCommand& command)
{
  if (command.argv.empty())
    throw SpawnError("no program to run");
  std::vector<char*> argv;
  for (const auto& a : command.argv)
    argv.push_back(const_cast<char*>(a.c_str())); // posix_spawn's signature predates const
  argv.push_back(nullptr);
  SpawnActions actions;
  actions.redirect(STDOUT_FILENO, command.stdout_path);
  actions.redirect(STDERR_FILENO, command.stderr_path);
  pid_t pid = 0;
  const int err = posix_spawnp(&pid, argv[0], actions.get(), nullptr, argv.data(), environ);
  if (err != 0)
    throw SpawnError(fmt::format("cannot start '{}': {}", command.argv.front(), std::strerror(err)));
  return pid;
}

namespace {

ChildExit exit_of(int status)
{
  ChildExit e;
  if (WIFSIGNALED(status)) {
    e.signalled = true;
    e.signal = WTERMSIG(status);
    e.code = 128 + e.signal;
  } else {
    e.code = WEXITSTATUS(status);
  }
  return e;
}

} // namespace

ChildExit wait_child(pid_t pid)
{
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      throw std::runtime_error(fmt::format("waitpid: {}", std::strerror(errno)));
  return exit_of(status);
}

ChildExit run_child(const ChildCommand& command)
{
  return wait_child(spawn_child(command));
}

namespace {

// The children still running when run_children leaves by an exception: they are stopped and
// reaped, so that no simulation keeps writing into a results directory nobody gathers.
class RunningChildren {
public:
  ~RunningChildren()
  {
    for (const auto& [pid, index] : pids) {
      kill(pid, SIGTERM);
      int status = 0;
      waitpid(pid, &status, 0);
    }
  }
  std::map<pid_t, std::size_t> pids;
};

} // namespace

void run_children(std::size_t count, std::size_t parallel, const std::function<ChildCommand(std::size_t)>& make,
                  const std::function<void(std::size_t, const ChildExit&)>& done)
{
  parallel = std::max<std::size_t>(parallel, 1);
  signal(SIGCHLD, SIG_DFL); // an inherited "ignore" would reap children before waitpid sees them
  RunningChildren guard;
  auto& running = guard.pids;
  std::size_t next = 0;
  bool stopping = false;
  while (next < count || !running.empty()) {
    if (const int signal = interrupt_signal(); signal != 0 && !stopping) {
      // Interrupted: the children still running are asked to stop too (SIGTERM: a terminal's
      // Ctrl-C may have reached them already, and a second SIGINT would end them at once), and
      // those not started yet end here, not started.
      stopping = true;
      for (const auto& [pid, index] : running)
        kill(pid, SIGTERM);
      for (; next < count; ++next) {
        ChildExit skipped;
        skipped.code = 128 + signal;
        skipped.spawn_error = "not started: interrupted by " + interrupt_name(signal) + " before it began";
        done(next, skipped);
      }
    }
    while (next < count && running.size() < parallel) {
      const std::size_t index = next++;
      try {
        running.emplace(spawn_child(make(index)), index);
      } catch (const std::exception& e) { // no program, or no command to make: this child fails, the rest run
        ChildExit failed;
        failed.code = 127; // what a shell reports for a command it cannot run
        failed.spawn_error = e.what();
        done(index, failed);
      }
    }
    if (running.empty())
      continue;
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR)
        continue;
      throw std::runtime_error(fmt::format("waitpid: {}", std::strerror(errno)));
    }
    const auto it = running.find(pid);
    if (it == running.end())
      continue; // not one of ours
    const std::size_t index = it->second;
    running.erase(it);
    done(index, exit_of(status));
  }
}

std::size_t default_parallelism()
{
  return std::max(1u, std::thread::hardware_concurrency());
}

std::string current_executable_link()
{
  return "/proc/self/exe";
}

std::string current_executable()
{
  std::error_code ec;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec)
    throw std::runtime_error("cannot find the running executable: " + ec.message());
  return path.string();
}

} // namespace acmesim
