#pragma once
// Result files are written under a temporary name and renamed into place once complete, so a
// crashed or interrupted run never leaves a file that looks whole but is not.
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace acmesim {

// A result file could not be written (full disk, file-size limit, permissions): what and why.
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class AtomicFile {
public:
  explicit AtomicFile(std::filesystem::path target);
  ~AtomicFile(); // removes the temporary file if commit() was not reached
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ofstream& stream() { return out_; }
  // Flushes, checks for write errors and renames into place; throws WriteError saying why.
  void commit();

private:
  std::filesystem::path target_;
  std::filesystem::path temporary_;
  std::ofstream out_;
  bool committed_ = false;
};

} // namespace acmesim
