#pragma once
// Running the real acmesim binary from tests, as a user would: exit code, stdout, stderr.
#include "models/common/CsvTable.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

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

// A run's jobs.csv, a map of column name to cell per row, in file order; empty if the file does not
// read as a plain table (a quoted cell holding a comma, which these tests' jobs never have).
inline std::vector<std::map<std::string, std::string>> jobs_csv_rows(const std::filesystem::path& file)
{
  const std::string text = slurp(file);
  DiagnosticList problems;
  const CsvTable table(file.string(), text, problems);
  std::vector<std::map<std::string, std::string>> rows;
  if (!problems.empty())
    return rows;
  for (const CsvTable::Row& row : table.rows()) {
    auto& cells = rows.emplace_back();
    for (std::size_t c = 0; c < row.cells.size(); ++c)
      cells[table.header()[c]] = std::string(row.cells[c]);
  }
  return rows;
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
