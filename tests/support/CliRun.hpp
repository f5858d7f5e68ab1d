#pragma once
// Running the real acmesim binary from tests, as a user would: exit code, stdout, stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace acmesim::testing {

struct CliOutcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& p)
{
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A scratch directory per test process, removed when the process exits.
inline const std::filesystem::path& scratch()
{
  struct Dir {
    std::filesystem::path path = std::filesystem::temp_directory_path() / ("acmesim-cli-" + std::to_string(::getpid()));
    Dir()
    {
      std::filesystem::remove_all(path);
      std::filesystem::create_directories(path);
    }
    ~Dir()
    {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Dir dir;
  return dir.path;
}

inline std::filesystem::path write_scratch_file(const std::string& name, const std::string& text)
{
  const auto p = scratch() / name;
  std::ofstream(p) << text;
  return p;
}

// Runs the binary from the source directory, so fixture paths are relative to it; `env` is
// put before the command ("PATH=/nowhere").
inline CliOutcome run_acmesim(const std::string& args, const std::string& env = "")
{
  const auto out = scratch() / "stdout.txt";
  const auto err = scratch() / "stderr.txt";
  const std::string cmd = std::string("cd '") + ACMESIM_SOURCE_DIR + "' && " + env + " '" + ACMESIM_BINARY + "' " + args + " >'" +
                          out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

} // namespace acmesim::testing
