#pragma once
// A run's results directory (docs/outputs.md): the files a run writes there, named once, and the
// run's exclusive hold on the directory. One process at a time writes into a directory, and a
// run removes the results of an earlier run before it starts, so that a directory never holds
// files of two runs, and a run that is killed or fails leaves no set that looks whole.
#include <array>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace acmesim {

namespace result_file {
inline constexpr std::string_view JOBS = "jobs.csv";
inline constexpr std::string_view FAILURES = "failures.csv";
inline constexpr std::string_view UTILISATION = "utilisation.csv";
inline constexpr std::string_view TIMELINE = "timeline.json";
// While a run goes and instead of the summary after it: that the directory holds no whole set, and
// why (still running or killed, interrupted, failed, stalled with partial files).
inline constexpr std::string_view INCOMPLETE = "INCOMPLETE";
// Written last: a directory with a summary.json holds a whole result set.
inline constexpr std::string_view SUMMARY = "summary.json";
inline constexpr std::array ALL{JOBS, FAILURES, UTILISATION, TIMELINE, INCOMPLETE, SUMMARY};
} // namespace result_file

// Another process holds the directory.
struct ResultsDirBusy : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The hold of this process on a results directory (flock on DIR/.acmesim.lock), released when
// the object goes, or when the process ends in any way: a killed run leaves no stale lock.
class ResultsDirLock {
public:
  // Throws ResultsDirBusy naming the holder's pid when another process holds it, and
  // std::runtime_error when the lock file cannot be made.
  explicit ResultsDirLock(const std::filesystem::path& dir);
  ~ResultsDirLock();
  ResultsDirLock(ResultsDirLock&& other) noexcept;
  ResultsDirLock& operator=(ResultsDirLock&&) = delete;
  ResultsDirLock(const ResultsDirLock&) = delete;
  ResultsDirLock& operator=(const ResultsDirLock&) = delete;

private:
  int fd_ = -1;
};

// Refuses (InputError naming `--out`) a run whose results in `out` would overwrite one of the
// files it reads, given as (key that names it, path): a run's failures.csv replayed into the same
// directory, say.
void check_inputs_apart_from_results(const std::vector<std::pair<std::string, std::string>>& inputs,
                                     const std::filesystem::path& out);

// Removes the result files of an earlier run, and temporaries a killed run left.
void clear_results(const std::filesystem::path& dir);

// Writes INCOMPLETE saying `why`. Best effort: a directory that cannot take it (a full disk) is
// left without it, and the missing summary.json still says the set is not whole.
void mark_incomplete(const std::filesystem::path& dir, const std::string& why) noexcept;
// What a run that has started writes first: who runs it and since when.
std::string run_in_progress_note();
// Refuses (InputError naming the directory) a results directory marked INCOMPLETE, quoting why:
// every command that reads a run's results calls it first.
void require_whole_results(const std::filesystem::path& dir);

} // namespace acmesim
